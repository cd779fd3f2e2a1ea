/**
 * HTTP fuzz over every operation of the OpenAPI document a real `txa serve` on 127.0.0.1 serves:
 * seeded valid-ish and hostile requests (wrong types, huge and odd strings, deep nesting, bad
 * query parameters and ids, wrong methods, content types and keys). Every answer must be below
 * 500, an error body of the API's shape (docs/server.md "API conventions") with a known code, free of stack traces and of the
 * other workspace's data; afterwards the server still answers and the ledger is sound.
 * TXA_FUZZ_CASES / TXA_FUZZ_SEED / TXA_FUZZ_ONLY: see fuzz-run.ts; bench/fuzz-http.mjs runs more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { Rng } from '../../src/fixtures/prng.js';
import { TxaError, isErrorCode } from '../../src/core/errors.js';
import { revokeKey, listKeys } from '../../src/engine/keys.js';
import { createTag } from '../../src/engine/tags.js';
import { createExport } from '../../src/engine/exports.js';
import { OTHER_WS, WS, seedLedger } from '../server/seed.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { MAX_DEPTH, deepJson, hostileString, hostileValue, hugeString } from './hostile.js';
import { INTERNALS, fuzzRun, reportFigures, summarize, type Violation } from './fuzz-run.js';
import { count, integrityProblems, withLedger } from './ledger-check.js';

const run = fuzzRun('http', 300);

/**
 * Codes an error body may carry: docs/reference/api.md "Error codes", and the ones docs/ record beyond
 * them (405 on a known path, a not-ready or failed export's file, attachments,
 * cancelling an export that has ended), and docs/reference/api.md "Error codes" (own transfers, wallets, syncs).
 */
const CONTRACT_CODES = new Set([
  'MISSING_REQUIRED_FIELD',
  'MISSING_REPORT_TYPE',
  'INVALID_TAG_TYPE',
  'INVALID_COLOR_FORMAT',
  'INVALID_FIELD',
  'INVALID_PARAMETERS',
  'INVALID_DATE_RANGE',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INSUFFICIENT_PERMISSIONS',
  'INVALID_DOWNLOAD_TOKEN',
  'TAG_LIMIT_EXCEEDED',
  'WORKSPACE_NOT_FOUND',
  'WALLET_NOT_FOUND',
  'TAG_NOT_FOUND',
  'TRANSACTION_NOT_FOUND',
  'EXPORT_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'NOT_FOUND',
  'TAG_ALREADY_EXISTS',
  'EXPORT_EXPIRED',
  'EXPORT_TOO_LARGE',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMIT_EXCEEDED',
  'EXPORT_RATE_LIMIT_EXCEEDED',
  'CONCURRENT_EXPORT_LIMIT',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
  'METHOD_NOT_ALLOWED',
  'EXPORT_NOT_READY',
  'ATTACHMENT_NOT_FOUND',
  'MISSING_RATE',
  'EXPORT_NOT_CANCELLABLE',
  'INVALID_TRANSFER',
  'TRANSFER_EXISTS',
  'TRANSFER_NOT_FOUND',
  'WALLET_ALREADY_EXISTS',
  'SYNC_UNAUTHORIZED',
  'SYNC_UNSUPPORTED_CHAIN',
  'SYNC_FAILED',
  'INVALID_ALLOCATION',
  'ALLOCATION_EXISTS',
  'INVALID_PICK',
  // Scheduled reports (docs/server.md "Scheduled reports").
  'SCHEDULE_NOT_FOUND',
  'TIER_LIMIT',
]);
/** Statuses the server answers before any route or handler, with INVALID_PARAMETERS (docs/server.md). */
const CLIENT_ERROR_STATUSES = new Set([400, 408, 414, 431]);
/** Limits of docs/server.md: JSON nesting, a path parameter's length, an attachment's size. */
const MAX_JSON_DEPTH = 32;
const MAX_PARAM_LENGTH = 100;
const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: Schema | 'raw' | undefined;
}
type Schema = Record<string, any>;

interface Fixture {
  srv: ServeProcess;
  ops: Operation[];
  keys: { full: string; write: string; read: string; revoked: string; other: string };
  ids: Record<string, string[]>;
  /** Strings that belong to the other workspace: never in a success body for a key of WS. */
  otherMarkers: string[];
  download: { exportId: string; expires: string; token: string };
}

let f: Fixture;
let path = '';
let txBefore = 0;
/** Transactions per wallet at the start: a wallet that DELETE removes takes its rows with it. */
let txOfWallet = new Map<string, number>();

beforeAll(async () => {
  const s = seedLedger({ tier: 'enterprise', rows: 40 });
  path = s.path;
  const e = s.engine;
  const tags = ['Salary', 'Rent', 'Gas'].map((name, i) => createTag(e, WS, { name, type: ['income', 'expense', 'neutral'][i] }).id);
  const exp = await createExport(e, WS, { format: 'csv' });
  const link = new URL(exp.download_url!);
  const otherTx = e.db.prepare('SELECT id FROM transactions WHERE workspace_id = ?').get(OTHER_WS) as { id: string };
  const otherTag = createTag(e, OTHER_WS, { name: 'Theirs', type: 'income' }).id;
  const keys = { full: s.key('full'), write: s.key('write'), read: s.key('read'), revoked: s.key('full'), other: s.key('full', OTHER_WS) };
  revokeKey(e, WS, listKeys(e, WS).find((k) => keys.revoked.startsWith(k.prefix))!.id);
  txBefore = count(e.db, 'SELECT count(*) FROM transactions');
  txOfWallet = new Map(
    (e.db.prepare('SELECT wallet_id, count(*) AS n FROM transactions GROUP BY wallet_id').all() as { wallet_id: string; n: number }[]).map((r) => [
      r.wallet_id,
      r.n,
    ]),
  );
  e.close();
  const srv = await startServe(path);
  const doc = (await (await fetch(`${srv.url}/api/v1/openapi.json`)).json()) as Schema;
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      const content = op.requestBody?.content ?? {};
      const ref: string | undefined = content['application/json']?.schema?.$ref;
      ops.push({
        method: method.toUpperCase(),
        path: p,
        query: (op.parameters ?? []).filter((q: Schema) => q.in === 'query').map((q: Schema) => q.name as string),
        body: ref ? doc.components.schemas[ref.split('/').pop()!] : content['*/*'] ? 'raw' : undefined,
      });
    }
  }
  f = {
    srv,
    ops,
    keys,
    ids: {
      tag_id: [...tags, otherTag],
      transaction_id: [...s.txIds.slice(0, 5), otherTx.id],
      disposal_id: [...s.txIds.slice(0, 5), otherTx.id],
      export_id: [exp.id],
      webhook_id: [],
      attachment_id: [],
      wallet_id: [...s.wallets, 'wal_other'],
    },
    otherMarkers: [OTHER_WS, 'wal_other', otherTx.id, otherTag],
    download: { exportId: exp.id, expires: link.searchParams.get('expires')!, token: link.searchParams.get('token')! },
  };
}, 60_000);

afterAll(async () => {
  await f?.srv.stop();
});

// ---- generating a request ----

interface HttpCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The key's workspace, when the case sends a valid key. */
  keyWs: string | null;
  /** The one answer docs/server.md gives this request, when one of its limits decides it. */
  expected?: { status: number; code: string; why: string };
  /** Why no 2xx may answer this request (a body over a limit). */
  refused?: string;
}

/** Percent-encodes the UTF-8 bytes of any string (a lone surrogate becomes U+FFFD). */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'bsc', 'Ethereum', 'solana'];
/** Targets `serve` (without --allow-private-webhooks) must refuse: a 2xx that accepted one is SSRF. */
const PRIVATE_URLS = [
  'http://127.0.0.1:1/x',
  'http://10.0.0.1/x',
  'http://[::1]/x',
  'http://169.254.169.254/latest',
  'http://[::ffff:127.0.0.1]/x',
  'http://0.0.0.0:1/',
  'http://localhost:1/x',
  'http://LOCALHOST./x',
  'http://api.localhost/x',
  'http://[::127.0.0.1]/x',
  'http://[64:ff9b::7f00:1]/x',
  'http://[64:ff9b::169.254.169.254]/',
];
const URLS = [
  'https://hooks.invalid/x',
  ...PRIVATE_URLS,
  'ftp://hooks.invalid/',
  'javascript:alert(1)',
  'http://',
  'https://hooks.invalid/' + 'p'.repeat(2100),
];

/** A plausible value for a field the API knows by name, else undefined. */
function known(rng: Rng, name: string): unknown {
  switch (name) {
    case 'workspace_id':
      return rng.weighted<string>([
        [WS, 8],
        [OTHER_WS, 1],
        ['ws_nope', 1],
      ]);
    case 'wallet_id':
      return rng.pick(f.ids.wallet_id!);
    case 'tag_ids':
    case 'wallet_ids':
      return rng.chance(70) ? Array.from({ length: rng.int(0, 3) }, () => rng.pick(f.ids[name === 'tag_ids' ? 'tag_id' : 'wallet_id']!)) : undefined;
    case 'chain':
      return rng.pick(CHAINS);
    case 'direction':
      return rng.pick(['inflow', 'outflow', 'both']);
    case 'start_date':
    case 'end_date':
      return `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
    case 'min_amount':
    case 'max_amount':
      return rng.pick(['0', '1.5', 10, '1e3', '-1']);
    case 'url':
    case 'webhook_url':
      return rng.pick(URLS);
    case 'email_recipients':
      return [rng.pick(['a@example.com', 'not-an-address', ''])];
    case 'color':
      return `#${rng.hex(3)}`;
    case 'currency':
      return rng.pick(['USD', 'EUR', 'usd', 'XXX']);
    case 'date_format':
      return rng.pick(['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY HH:mm:ss', 'yyyy']);
    case 'columns':
      return rng.pick([['date', 'amount'], ['nope'], [], ['date', 'date']]);
    default:
      return undefined;
  }
}

/** A value that fits `schema` (a small JSON Schema subset: what z.toJSONSchema emits here). */
function fromSchema(rng: Rng, schema: Schema, name = ''): unknown {
  const k = known(rng, name);
  if (k !== undefined) return k;
  if (schema.anyOf) return fromSchema(rng, rng.pick(schema.anyOf as Schema[]), name);
  if (schema.enum) return rng.pick(schema.enum as unknown[]);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [prop, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        if ((schema.required ?? []).includes(prop) || rng.chance(50)) out[prop] = fromSchema(rng, sub, prop);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: rng.int(schema.minItems ?? 0, 3) }, () => fromSchema(rng, schema.items ?? {}, name));
    case 'string':
      return `${name || 's'} ${rng.hex(3)}`.slice(0, schema.maxLength ?? 50);
    case 'number':
    case 'integer':
      return rng.int(0, 1000);
    case 'boolean':
      return rng.chance(50);
    case 'null':
      return null;
    default:
      return hostileValue(rng);
  }
}

/** Breaks a valid body in one to three places: a hostile value, a dropped field, an unknown one. */
function mutate(rng: Rng, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const obj = body as Record<string, unknown>;
  for (let n = rng.int(1, 3); n > 0; n--) {
    const keys = Object.keys(obj);
    const key = keys.length && rng.chance(80) ? rng.pick(keys) : hostileString(rng, { huge: false });
    const inner = obj[key];
    if (inner && typeof inner === 'object' && !Array.isArray(inner) && rng.chance(50)) mutate(rng, inner);
    else if (rng.chance(15)) delete obj[key];
    else obj[key] = hostileValue(rng);
  }
  return obj;
}

const BAD_JSON = ['{', '{"a":}', 'nul', '\u0000', '\ufeff{}', '{"a":1}{"b":2}', '[1,]', "{'a':1}", '"\\ud800"', '1e999999'];

/** A JSON body, and how deep it nests when it is one of the deeply nested ones (else 0). */
function jsonBody(rng: Rng, op: Operation): { body: Buffer | undefined; depth: number } {
  const schema = op.body && op.body !== 'raw' ? op.body : undefined;
  const depth = rng.int(1, MAX_DEPTH);
  let nesting = 0;
  const text = rng.weighted<() => string | undefined>([
    [() => (schema ? JSON.stringify(fromSchema(rng, schema)) : undefined), 3],
    [() => (schema ? JSON.stringify(mutate(rng, fromSchema(rng, schema))) : undefined), 6],
    [() => JSON.stringify(hostileValue(rng)), 2],
    [() => rng.pick(BAD_JSON), 1],
    [
      () => ((nesting = depth + 1), `{"workspace_id":"${WS}","${rng.pick(['filters', 'tag_ids', 'name', 'notes', 'x'])}":${deepJson(depth, rng.chance(50))}}`),
      1,
    ],
    [() => ((nesting = depth), deepJson(depth, rng.chance(50))), 1],
    // Just over the server's 1 MB JSON limit: 413 PAYLOAD_TOO_LARGE.
    [() => JSON.stringify({ workspace_id: WS, name: 'x'.repeat(1024 * 1024 + 16) }), 1],
  ])();
  return { body: text === undefined ? undefined : Buffer.from(text, 'utf8'), depth: nesting };
}

/** Percent-encoding no path may carry: `%ff` and a cut `%e2%82` are no UTF-8, `%zz` and a lone `%` no escape. */
const BAD_ESCAPES = ['%ff', '%', '%zz', '%e2%82', '%c0%af'];

/** A path parameter as sent: a real id, or a hostile one (some around the 100-character limit, some badly encoded). */
function pathParam(rng: Rng, name: string): string {
  const pool = f.ids[name] ?? [];
  if (pool.length && rng.chance(55)) return pct(rng.pick(pool));
  const value = pct(rng.chance(12) ? rng.pick(['x', 'é']).repeat(rng.int(16, 140)) : hostileString(rng, { huge: rng.chance(30) }));
  return rng.chance(8) ? `${value.slice(0, rng.int(0, 20)).replace(/%[0-9A-F]?$/, '')}${rng.pick(BAD_ESCAPES)}` : value;
}

function decodes(param: string): boolean {
  try {
    decodeURIComponent(param);
    return true;
  } catch {
    return false;
  }
}

function queryValue(rng: Rng, name: string): string {
  const k = known(rng, name);
  if (typeof k === 'string' && rng.chance(60)) return pct(k);
  if (Array.isArray(k) && rng.chance(60)) return pct(k.join(','));
  switch (name) {
    case 'page':
    case 'limit':
      if (rng.chance(60)) return String(rng.pick([0, 1, 2, -1, 50, 100, 101, 200, 201, 1e6, 1.5]));
      break;
    case 'sort':
      if (rng.chance(60)) return rng.pick(['timestamp_desc', 'timestamp_asc', 'amount_desc', 'amount_asc', 'random']);
      break;
    case 'has_tags':
    case 'has_notes':
      if (rng.chance(60)) return rng.pick(['true', 'false', 'TRUE', '1', '']);
      break;
    case 'expires':
      if (rng.chance(60)) return f.download.expires;
      break;
    case 'token':
      if (rng.chance(60)) return rng.chance(50) ? f.download.token : f.download.token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      break;
    case 'type':
      if (rng.chance(60)) return rng.pick(['tag.created', 'transaction.created', 'nope', '*']);
      break;
  }
  return pct(hostileString(rng));
}

function queryString(rng: Rng, op: Operation): string {
  const parts: string[] = [];
  for (const name of op.query) if (rng.chance(name === 'workspace_id' ? 85 : 35)) parts.push(`${name}=${queryValue(rng, name)}`);
  if (rng.chance(8) && parts.length) parts.push(parts[rng.int(0, parts.length - 1)]!); // a parameter twice
  if (rng.chance(8)) parts.push(`${pct(hostileString(rng, { huge: false }))}=${pct(hostileString(rng, { huge: false }))}`);
  if (rng.chance(5)) parts.push(rng.pick(['%', '%zz=1', 'a=%ff', '=', '&&', 'a[b]=1', 'a[]=1&a[]=2', '__proto__[x]=1']));
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The Authorization header; `writes` when it is the plain full or write key of WS. */
function authHeader(rng: Rng): { value: string | undefined; keyWs: string | null; writes?: 'full' | 'write' } {
  const k = f.keys;
  return rng.weighted<() => { value: string | undefined; keyWs: string | null; writes?: 'full' | 'write' }>([
    [() => ({ value: `Bearer ${k.full}`, keyWs: WS, writes: 'full' }), 60],
    [() => ({ value: `Bearer ${k.write}`, keyWs: WS, writes: 'write' }), 8],
    [() => ({ value: `Bearer ${k.read}`, keyWs: WS }), 8],
    [() => ({ value: `Bearer ${k.other}`, keyWs: OTHER_WS }), 6],
    [() => ({ value: `Bearer ${k.revoked}`, keyWs: null }), 3],
    [() => ({ value: undefined, keyWs: null }), 4],
    [
      () => ({
        value: rng.pick([
          'Bearer',
          'Bearer ',
          `Basic ${k.full}`,
          `Bearer ${k.full}x`,
          `Bearer ${k.full} ${k.full}`,
          'Bearer txa_live_',
          `Bearer ${pct(hugeString(rng))}`,
        ]),
        keyWs: null,
      }),
      8,
    ],
    [() => ({ value: rng.pick([`bearer ${k.full}`, `Bearer   ${k.full}  `]), keyWs: WS }), 3],
  ])();
}

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/vnd.api+json',
];

/** About the size of the request line and headers, which Node refuses with a 431 over 16 KB. */
const headSize = (c: HttpCase) => Object.entries(c.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, c.path.length + 16);

function makeCase(rng: Rng): HttpCase {
  const op = rng.pick(f.ops);
  const method = rng.chance(88) ? op.method : rng.pick(METHODS);
  const prefix = rng.chance(85) ? '/api/v1' : rng.pick(['/v1', '/api/v2', '/API/v1', '/api/v1/', '']);
  const params: string[] = [];
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    params.push(pathParam(rng, name));
    return params.at(-1)!;
  });
  const auth = authHeader(rng);
  const headers: Record<string, string> = {};
  if (auth.value !== undefined) headers.authorization = auth.value;
  let body: Buffer | undefined;
  let depth = 0;
  if (op.body === 'raw') {
    // One in five just over the 10 MB limit: a 413 (or the key's refusal), never a reset connection.
    body = rng.chance(20) ? Buffer.alloc(ATTACHMENT_MAX_BYTES + rng.int(1, 4096), rng.int(0, 255)) : Buffer.from(rng.hex(rng.int(0, 32 * 1024)), 'hex');
    headers['content-type'] = rng.pick(['application/pdf', 'image/png', 'text/html', 'application/octet-stream', '']);
    if (rng.chance(85)) headers['x-file-name'] = pct(hostileString(rng, { huge: false }));
  } else if (op.body || rng.chance(10)) {
    ({ body, depth } = jsonBody(rng, op));
    if (rng.chance(88)) headers['content-type'] = 'application/json';
    else if (rng.chance(80)) headers['content-type'] = rng.pick(CONTENT_TYPES);
  }
  if (method === 'POST' && rng.chance(10)) headers['idempotency-key'] = rng.pick(['k1', 'k2', '', 'x'.repeat(300), pct(hostileString(rng, { huge: false }))]);
  if (rng.chance(5)) headers[rng.pick(['x-forwarded-for', 'accept', 'accept-encoding', 'x-file-name', 'cookie'])] = pct(hostileString(rng, { huge: false }));
  if (headers['content-type'] === '') delete headers['content-type'];
  // Node's client misreads the answer to a HEAD that carried a body: HEAD goes without one.
  if (method === 'HEAD') body = undefined;
  const c: HttpCase = { method, path: `${prefix}${path}${queryString(rng, op)}`, headers, body, keyWs: auth.keyWs };
  // Limits hold where the route reads a body: the operation's own method (any prefix).
  const deep = method === op.method && typeof op.body === 'object' && depth > MAX_JSON_DEPTH;
  const oversized = method === op.method && op.body === 'raw' && body!.length > ATTACHMENT_MAX_BYTES;
  if (deep || oversized) c.refused = deep ? `JSON nested ${depth} levels` : `an attachment of ${body!.length} bytes`;
  // What decides the answer, in the order serve meets it: the URL, the route, then (with a key
  // that may write) the body. A head near Node's 16 KB limit may be a 431 before any of it.
  if (headSize(c) > 8_000 || method === 'HEAD') return c;
  const routed = prefix === '/api/v1' && method === op.method;
  if (params.some((p) => !decodes(p))) c.expected = { status: 400, code: 'INVALID_PARAMETERS', why: 'a path that is not valid percent-encoding' };
  else if (routed && params.some((p) => decodeURIComponent(p).length > MAX_PARAM_LENGTH))
    c.expected = { status: 414, code: 'INVALID_PARAMETERS', why: 'a path parameter over 100 characters' };
  else if (routed && deep && auth.writes === 'full' && headers['content-type'] === 'application/json')
    c.expected = { status: 400, code: 'INVALID_JSON', why: c.refused! };
  else if (routed && oversized && auth.writes) c.expected = { status: 413, code: 'PAYLOAD_TOO_LARGE', why: c.refused! };
  return c;
}

// ---- sending and judging ----

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Node's client sends a GET's, DELETE's or OPTIONS's body without Content-Length, as stray bytes after the request. */
const lengthOf = (body: Buffer | undefined) => (body ? { 'content-length': String(body.length) } : {});

function send(c: HttpCase): Promise<Answer> {
  const url = new URL(f.srv.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers: { ...c.headers, ...lengthOf(c.body), connection: 'close' },
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(c.body);
  });
}

function judge(c: HttpCase, a: Answer): string[] {
  const problems: string[] = [];
  if (a.status >= 500) problems.push(`status ${a.status}`);
  if (INTERNALS.test(a.text)) problems.push(`internals in the body: ${INTERNALS.exec(a.text)![0]}`);
  if (c.refused && a.status < 300) problems.push(`${c.refused} accepted with ${a.status}`);
  if (c.method === 'HEAD') return problems;
  if (c.expected) {
    const code = a.status >= 400 ? /"code":"(\w+)"/.exec(a.text)?.[1] : undefined;
    if (a.status !== c.expected.status || code !== c.expected.code)
      problems.push(`${c.expected.why}: ${a.status} ${code}, not ${c.expected.status} ${c.expected.code}`);
  }
  if (a.status >= 400) {
    let body: any;
    try {
      body = JSON.parse(a.text);
    } catch {
      return [...problems, `error body is not JSON: ${a.text.slice(0, 120)}`];
    }
    const e = body?.error;
    if (body?.success !== false || typeof e?.code !== 'string' || typeof e?.message !== 'string' || (e.field !== undefined && typeof e.field !== 'string')) {
      problems.push(`error body not of the API's shape: ${a.text.slice(0, 160)}`);
    } else if (!CONTRACT_CODES.has(e.code)) {
      problems.push(`unknown error code ${e.code}`);
    } else if (
      isErrorCode(e.code) &&
      new TxaError(e.code, '').status !== a.status &&
      !(e.code === 'INVALID_PARAMETERS' && CLIENT_ERROR_STATUSES.has(a.status))
    ) {
      problems.push(`status ${a.status} with ${e.code}`);
    }
    if (!a.contentType.startsWith('application/json')) problems.push(`error with content-type ${a.contentType}`);
  } else if (a.contentType.startsWith('application/json') && !c.path.includes('/download')) {
    const body = JSON.parse(a.text);
    if (body?.success !== true && !('openapi' in body)) problems.push(`2xx body without success: true`);
  }
  const target =
    a.status < 300 && /\/(webhooks|exports)(\?|$)/.test(c.path) ? PRIVATE_URLS.find((u) => c.body?.toString('utf8').includes(JSON.stringify(u))) : undefined;
  if (target) problems.push(`a private webhook target ${target} accepted`);
  if (a.status < 300 && c.keyWs === WS) {
    const leaked = f.otherMarkers.find((m) => a.text.includes(m));
    if (leaked) problems.push(`another workspace's ${leaked} in a ${a.status} answer`);
  }
  return problems;
}

function describeCase(c: HttpCase): string {
  const body = c.body ? ` body(${c.body.length} B)=${c.body.toString('utf8').slice(0, 160)}` : '';
  return `${c.method} ${c.path.slice(0, 300)} ${JSON.stringify({ ...c.headers, authorization: c.headers.authorization?.slice(0, 20) })}${body}`;
}

describe('HTTP fuzz over the OpenAPI routes of txa serve', () => {
  it(
    `answers ${run.indexes.length} seeded requests without 5xx, stack traces or foreign data; the ledger stays sound`,
    async () => {
      expect(f.ops.length).toBeGreaterThanOrEqual(18);
      const violations: Violation[] = [];
      const statuses: Record<number, number> = {};
      /** Cases whose answer a limit decides, by limit: so a run shows it met each of them. */
      const limits: Record<string, number> = {};
      const createdTags: string[] = [];
      const removedWallets = new Set<string>();
      for (const i of run.indexes) {
        const c = makeCase(run.rng(i));
        let a: Answer;
        try {
          a = await send(c);
        } catch (err) {
          violations.push({ case: i, input: describeCase(c), problem: `no answer: ${(err as Error).message}` });
          continue;
        }
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        const limit = c.expected
          ? `${c.expected.status} ${c.expected.why.replace(/\d+ (levels|bytes)/, 'over the limit')}`
          : c.refused && 'refused, other answer';
        if (limit) limits[limit] = (limits[limit] ?? 0) + 1;
        for (const problem of judge(c, a)) violations.push({ case: i, input: describeCase(c), problem });
        if (a.status === 201 && c.method === 'POST' && /\/tags(\?|$)/.test(c.path)) createdTags.push(JSON.parse(a.text).data.id);
        if (a.status === 201 && c.method === 'POST' && /\/webhooks(\?|$)/.test(c.path)) f.ids.webhook_id!.push(JSON.parse(a.text).data.id);
        if (a.status === 201 && c.path.includes('/attachments')) f.ids.attachment_id!.push(JSON.parse(a.text).data.id);
        if (a.status < 300 && c.method === 'POST' && /\/exports(\?|$)/.test(c.path)) f.ids.export_id!.push(JSON.parse(a.text).data.id);
        if (a.status < 300 && c.method === 'DELETE' && /\/wallets\/[^/?]+(\?|$)/.test(c.path)) removedWallets.add(JSON.parse(a.text).data.id);
      }
      const health = await fetch(`${f.srv.url}/api/v1/health`);
      expect(health.status).toBe(200);
      const after = withLedger(path, (db) => ({
        problems: integrityProblems(db),
        transactions: count(db, 'SELECT count(*) FROM transactions'),
        tagsWithoutEvent: createdTags.filter((id) => count(db, "SELECT count(*) FROM events WHERE type = 'tag.created' AND subject_id = ?", id) !== 1),
      }));
      reportFigures('http', {
        seed: run.seed,
        cases: run.indexes.length,
        operations: f.ops.length,
        statuses,
        limits,
        violations: violations.length,
        distinct: new Set(violations.map((v) => v.problem)).size,
      });
      expect(summarize(violations)).toEqual([]);
      // Nothing is lost: only a wallet removed by a 2xx DELETE takes its transactions with it.
      const removed = [...removedWallets].reduce((n, id) => n + (txOfWallet.get(id) ?? 0), 0);
      expect(after).toEqual({ problems: [], transactions: txBefore - removed, tagsWithoutEvent: [] });
    },
    Math.max(120_000, run.indexes.length * 400),
  );
});
