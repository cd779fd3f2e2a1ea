/**
 * docs/reference/api.md from the OpenAPI document (openapi.ts) and the error table of
 * core/errors.ts: each operation with its parameters, request body fields and responses, the
 * resources the responses hold, and every error code with its HTTP status and CLI exit code.
 * Pure and stable: the document's order, no date. `npm run reference` writes it
 * (src/cli/write-reference.ts); test/cli/reference.test.ts fails when the file is stale.
 */
import { type ErrorCode, TxaError } from '../core/errors.js';
import { anchor, code, escapeMd, wrap } from '../core/markdown.js';
import { TIER_LIMITS, type TierLimits } from '../core/limits.js';

type Json = Record<string, unknown>;

/**
 * Every error code, in the order of the `ErrorCode` union. `Record<ErrorCode, …>` makes the
 * compiler refuse a code missing here or one that is gone.
 */
const CODES: Record<ErrorCode, true> = {
  MISSING_REQUIRED_FIELD: true,
  MISSING_REPORT_TYPE: true,
  INVALID_TAG_TYPE: true,
  INVALID_COLOR_FORMAT: true,
  INVALID_FIELD: true,
  INVALID_PARAMETERS: true,
  INVALID_DATE_RANGE: true,
  INVALID_JSON: true,
  UNAUTHORIZED: true,
  FORBIDDEN: true,
  INSUFFICIENT_PERMISSIONS: true,
  INVALID_DOWNLOAD_TOKEN: true,
  TAG_LIMIT_EXCEEDED: true,
  TIER_LIMIT: true,
  WORKSPACE_NOT_FOUND: true,
  WALLET_NOT_FOUND: true,
  TAG_NOT_FOUND: true,
  TRANSACTION_NOT_FOUND: true,
  EXPORT_NOT_FOUND: true,
  WEBHOOK_NOT_FOUND: true,
  SCHEDULE_NOT_FOUND: true,
  KEY_NOT_FOUND: true,
  MEMBER_NOT_FOUND: true,
  INVITATION_NOT_FOUND: true,
  INVITATION_EXISTS: true,
  INVITATION_EXPIRED: true,
  INVITATION_NOT_PENDING: true,
  MEMBER_ALREADY_EXISTS: true,
  LAST_ADMIN: true,
  ATTACHMENT_NOT_FOUND: true,
  TRANSFER_NOT_FOUND: true,
  ASSERTION_NOT_FOUND: true,
  INVALID_TRANSFER: true,
  TRANSFER_EXISTS: true,
  INVALID_ALLOCATION: true,
  ALLOCATION_EXISTS: true,
  INVALID_PICK: true,
  NOT_FOUND: true,
  METHOD_NOT_ALLOWED: true,
  TAG_ALREADY_EXISTS: true,
  WALLET_ALREADY_EXISTS: true,
  WORKSPACE_ALREADY_EXISTS: true,
  IDEMPOTENCY_KEY_IN_USE: true,
  IDEMPOTENCY_KEY_REUSED: true,
  EXPORT_EXPIRED: true,
  EXPORT_NOT_READY: true,
  EXPORT_TOO_LARGE: true,
  PAYLOAD_TOO_LARGE: true,
  RATE_LIMIT_EXCEEDED: true,
  EXPORT_RATE_LIMIT_EXCEEDED: true,
  CONCURRENT_EXPORT_LIMIT: true,
  IMPORT_FAILED: true,
  INVALID_RULES: true,
  MISSING_RATE: true,
  LEDGER_ERROR: true,
  LEDGER_NOT_FOUND: true,
  IO_ERROR: true,
  CONNECTION_ERROR: true,
  DELIVERY_FAILED: true,
  INTERRUPTED: true,
  EXPORT_CANCELLED: true,
  EXPORT_NOT_CANCELLABLE: true,
  LOCAL_ONLY: true,
  SYNC_UNAUTHORIZED: true,
  SYNC_UNSUPPORTED_CHAIN: true,
  SYNC_FAILED: true,
  USAGE_ERROR: true,
  PERIOD_CLOSED: true,
  UNRESOLVED_FINDINGS: true,
  INTERNAL_ERROR: true,
};

const LIMITS: [keyof TierLimits, string][] = [
  ['tagsPerWorkspace', 'tags per workspace'],
  ['apiRequestsPerHour', 'API requests per hour'],
  ['maxTransactionsPerExport', 'transactions per export'],
  ['exportsPerHour', 'exports per hour'],
  ['concurrentExports', 'concurrent exports'],
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const asJson = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const refName = (ref: unknown) => (typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined);
const schemaLink = (name: string) => `[${name}](#${anchor(name)})`;

/** A short type of a JSON schema: `string`, `integer or null`, `one of a, b`, `Tag[]`, `object`. */
function typeOf(s: Json): string {
  const ref = refName(s.$ref);
  if (ref) return schemaLink(ref);
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => code(JSON.stringify(v))).join(', ')}`;
  if ('const' in s) return `always ${code(JSON.stringify(s.const))}`;
  const alternatives = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map(typeOf).join(' or ');
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type as string | undefined);
  if (type === 'array') return `${typeOf(asJson(s.items)).replace(/^(one of|always) .*/, '($&)')}[]`;
  return type ?? 'any';
}

/** Facts of a schema besides its type: format, bounds, pattern, default, description. */
function notesOf(s: Json): string[] {
  const notes: string[] = [];
  if (typeof s.format === 'string') notes.push(s.format);
  const bound = (key: string, text: string) => typeof s[key] === 'number' && notes.push(`${text} ${s[key]}`);
  bound('minLength', 'min length');
  bound('maxLength', 'max length');
  bound('minimum', 'min');
  bound('maximum', 'max');
  bound('exclusiveMinimum', 'above');
  bound('exclusiveMaximum', 'below');
  bound('minItems', 'min items');
  bound('maxItems', 'max items');
  if (typeof s.pattern === 'string') notes.push(`pattern ${code(s.pattern)}`);
  if (s.default !== undefined) notes.push(`default ${code(JSON.stringify(s.default))}`);
  if (typeof s.description === 'string') notes.push(escapeMd(s.description));
  return notes;
}

/** The fields of an object schema as list items, nested objects under dotted names. */
function fieldsOf(s: Json, prefix = ''): string[] {
  const properties = asJson(s.properties);
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(properties).flatMap(([name, value]) => {
    const field = asJson(value);
    const path = `${prefix}${name}`;
    const head = `${code(path)} (${typeOf(field)}${required.has(name) ? ', required' : ''})`;
    const notes = notesOf(field);
    const line = wrap(notes.length ? `${head}: ${notes.join('; ')}` : head, '- ', '  ');
    const nested = field.type === 'object' && field.properties ? fieldsOf(field, `${path}.`) : [];
    return [line, ...nested];
  });
}

function parameterItem(p: Json): string {
  const where = p.in === 'path' ? 'path' : p.in === 'header' ? 'header' : 'query';
  const head = `${code(String(p.name))} (${where}${p.required ? ', required' : ''})`;
  return wrap(typeof p.description === 'string' ? `${head}: ${escapeMd(p.description)}` : head, '- ', '  ');
}

function bodyOf(body: Json): string {
  const content = asJson(body.content);
  return Object.entries(content)
    .map(([type, media]) => {
      const schema = asJson(asJson(media).schema);
      const ref = refName(schema.$ref);
      const what = ref ? `${code(type)}, ${schemaLink(ref)}` : `${code(type)}, ${typeOf(schema)}`;
      return `Request body (${what}${body.required ? ', required' : ''}).`;
    })
    .join('\n');
}

function responseItem(status: string, r: Json): string {
  const schema = asJson(asJson(asJson(r.content)['application/json']).schema);
  const props = asJson(schema.properties);
  const ref = refName(schema.$ref);
  const members = Object.entries(props)
    .filter(([name]) => name !== 'success')
    .map(([name, value]) => `${code(name)} ${typeOf(asJson(value))}`);
  const shape = ref ? ` (${schemaLink(ref)})` : members.length ? ` (${members.join(', ')})` : '';
  return wrap(`${code(status)}: ${escapeMd(String(r.description ?? ''))}${shape}`, '- ', '  ');
}

function operation(path: string, method: string, op: Json, server: string): string {
  const parts = [`### ${method.toUpperCase()} ${server}${path}`, wrap(escapeMd(String(op.summary ?? '')))];
  if (Array.isArray(op.security) && op.security.length === 0) parts.push('No key needed.');
  if (Array.isArray(op['x-roles'])) parts.push(`Roles (docs/server.md "Teams"): ${op['x-roles'].join(', ')}.`);
  const params = (op.parameters as Json[] | undefined) ?? [];
  if (params.length) parts.push(['Parameters:', '', ...params.map(parameterItem)].join('\n'));
  if (op.requestBody) parts.push(bodyOf(asJson(op.requestBody)));
  const responses = Object.entries(asJson(op.responses)).map(([status, r]) => responseItem(status, asJson(r)));
  parts.push(['Responses:', '', ...responses].join('\n'));
  return parts.join('\n\n');
}

/** The reference of `doc` (openApiDocument()), with the error codes of core/errors.ts. */
export function apiReference(doc: Json): string {
  const info = asJson(doc.info);
  const server = String(asJson((doc.servers as Json[] | undefined)?.[0]).url ?? '');
  const schemes = asJson(asJson(doc.components).securitySchemes);
  const paths = asJson(doc.paths);
  const schemas = asJson(asJson(doc.components).schemas);
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((m) => asJson(item)[m]).map((m) => operation(path, m, asJson(asJson(item)[m]), server)),
  );
  const index = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((m) => asJson(item)[m]).map((m) => {
      const heading = `${m.toUpperCase()} ${server}${path}`;
      return wrap(`[${code(heading)}](#${anchor(heading)}): ${escapeMd(String(asJson(asJson(item)[m]).summary ?? ''))}`, '- ', '  ');
    }),
  );
  const resources = Object.entries(schemas).map(([name, s]) => {
    const schema = asJson(s);
    const fields = fieldsOf(schema);
    const body = fields.length ? fields.join('\n') : `${typeOf(schema)}.`;
    return `### ${name}\n\n${body}`;
  });
  const errors = Object.keys(CODES).map((c) => {
    const e = new TxaError(c as ErrorCode, '');
    return `| ${code(c)} | ${e.status} | ${e.exitCode} |`;
  });
  return `${[
    `# ${String(info.title ?? 'API')} reference`,
    wrap(
      'Generated from the OpenAPI document (src/server/openapi.ts) and the error table (src/core/errors.ts) by ' +
        '`npm run reference` (src/server/reference.ts): do not edit by hand. test/cli/reference.test.ts fails when ' +
        'this file is stale. `txa serve` serves the document itself at `GET /api/v1/openapi.json`; the conventions ' +
        '(keys, workspaces, lists, idempotency, rate limits) are in [docs/server.md](../server.md), the CLI in [cli.md](cli.md).',
    ),
    wrap(`${escapeMd(String(info.description ?? ''))} Document version ${code(String(info.version ?? ''))}.`),
    wrap(
      `Authentication: ${Object.values(schemes)
        .map((s) => `${asJson(s).scheme} (${escapeMd(String(asJson(s).description ?? ''))})`)
        .join(', ')} in \`Authorization: Bearer <key>\`, on every operation unless it says otherwise.`,
    ),
    wrap(
      'Every success body is `{"success": true, "data": …}` (lists add `pagination`, the transaction list `summary`); ' +
        'every failure `{"success": false, "error": {"code", "message", "field"?}}` with the status of its code (below).',
    ),
    ['## Operations', '', ...index].join('\n'),
    ...operations,
    '## Resources and request bodies',
    ...resources,
    [
      '## Tier limits',
      '',
      wrap(
        'Per workspace, by its tier (src/core/limits.ts). The engine enforces them in both backends; `txa serve` the ' +
          'API requests per hour, which for an enterprise workspace are its `rate_limit` (`txa workspace update --rate-limit`). ' +
          'Over a limit: `TAG_LIMIT_EXCEEDED`, `TIER_LIMIT`, `RATE_LIMIT_EXCEEDED`, `EXPORT_TOO_LARGE`, `EXPORT_RATE_LIMIT_EXCEEDED`, `CONCURRENT_EXPORT_LIMIT`.',
      ),
      '',
      `| limit | ${Object.keys(TIER_LIMITS).join(' | ')} |`,
      `|---|${Object.keys(TIER_LIMITS)
        .map(() => '---:')
        .join('|')}|`,
      ...LIMITS.map(
        ([key, label]) =>
          `| ${label} | ${Object.values(TIER_LIMITS)
            .map((l) => (l[key] === null ? 'unlimited' : l[key].toLocaleString('en-US')))
            .join(' | ')} |`,
      ),
    ].join('\n'),
    [
      '## Error codes',
      '',
      wrap('Each code with its HTTP status and the exit code of the CLI, which reports the same codes from either backend.'),
      '',
      '| code | HTTP status | exit code |',
      '|---|---|---|',
      ...errors,
    ].join('\n'),
  ].join('\n\n')}\n`;
}
