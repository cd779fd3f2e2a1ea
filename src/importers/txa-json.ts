/**
 * This tool's JSON: the export document (`{"export":…, "transactions":[…]}`, docs/exports.md), a bare
 * array of Transaction objects (docs/reference/api.md "Transaction"), or NDJSON with one per line. `id`, `tags`,
 * `attachments` and the derived fields are optional; `wallet_id` + `wallet_label` name the wallet
 * unless `--wallet` is given. Errors point at the NDJSON line, or the element's 1-based position.
 */
import { TxaError } from '../core/errors.js';
import type { ImportRecord, Importer, ParseResult, RowError } from './types.js';
import { FieldError, fail } from './csv.js';
import { addressOf, amountOf, dateTimeOf } from './fields.js';
import { chainOf, checkScale, directionOf, tagsOf, typeOf, walletRefOf } from './transaction-fields.js';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A string field as given ('' when absent or null). */
function stringField(o: Json, key: string): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(key, 'must be a string');
  return v;
}

function optionalString(o: Json, key: string): string {
  return stringField(o, key).trim();
}

/**
 * Notes exactly as exported: a round trip keeps leading and trailing whitespace. Blank notes are
 * none (null), as `tx update --notes` stores them.
 */
function notesOf(o: Json): string | null {
  const notes = stringField(o, 'notes');
  return notes.trim() === '' ? null : notes;
}

function tokenOf(v: unknown): ImportRecord['token'] {
  if (!isObject(v)) fail('token', 'must be an object {symbol, address, decimals}');
  if (typeof v.symbol !== 'string' || v.symbol.trim() === '') fail('token.symbol', 'must be a non-empty string');
  if (v.address !== undefined && v.address !== null && typeof v.address !== 'string') fail('token.address', 'must be a string or null');
  const address = v.address ? addressOf(v.address as string, 'token.address') : null;
  const decimals = v.decimals;
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 78) fail('token.decimals', 'must be an integer from 0 to 78');
  return { symbol: v.symbol.trim(), address, decimals };
}

function fiatOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  // A JSON number's shortest decimal form is exactly what the writer meant (`12.34`).
  if (typeof v !== 'number' && typeof v !== 'string') fail('fiat_value', 'must be a number or null');
  return amountOf(String(v), 'fiat_value');
}

function tagsOfValue(v: unknown): ImportRecord['tags'] {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) fail('tags', 'must be an array of tags or tag names');
  return tagsOf(v.map((t: unknown) => (typeof t === 'string' ? { name: t } : isObject(t) ? t : { name: t })) as { name: unknown }[]);
}

/** One Transaction-shaped object → a record; throws FieldError on the first bad field. */
export function recordOfTransaction(v: unknown, line: number): ImportRecord {
  if (!isObject(v)) fail('transaction', 'must be a JSON object');
  const tx_hash = optionalString(v, 'tx_hash');
  if (tx_hash === '') fail('tx_hash', 'is required');
  if (typeof v.amount !== 'string') fail('amount', 'must be a decimal string, e.g. "1.5"');
  const token = tokenOf(v.token);
  const amount = amountOf(v.amount, 'amount');
  checkScale(amount, token.decimals);
  const direction = directionOf(v.direction);
  if (typeof v.timestamp !== 'string') fail('timestamp', 'must be an ISO 8601 UTC timestamp, e.g. 2024-01-31T12:00:00Z');
  const from_address = optionalString(v, 'from_address');
  const to_address = optionalString(v, 'to_address');
  if (v.id !== undefined && (typeof v.id !== 'string' || v.id.trim() === '')) fail('id', 'must be a non-empty string');
  return {
    line,
    wallet: walletRefOf(v.wallet_id, v.wallet_label, chainOf(v.chain), direction, from_address, to_address),
    tx_hash,
    id: v.id as string | undefined,
    from_address,
    to_address,
    token,
    amount,
    fiat_value: fiatOf(v.fiat_value),
    direction,
    type: typeOf(v.type),
    timestamp: dateTimeOf(v.timestamp, 'timestamp'),
    notes: notesOf(v),
    tags: tagsOfValue(v.tags),
  };
}

function parseItems(format: string, items: { line: number; value: unknown; error?: string }[]): ParseResult {
  const records: ImportRecord[] = [];
  const errors: RowError[] = [];
  for (const item of items) {
    if (item.error) {
      errors.push({ line: item.line, field: 'json', reason: item.error });
      continue;
    }
    try {
      records.push(recordOfTransaction(item.value, item.line));
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      errors.push({ line: item.line, field: err.field, reason: err.message });
    }
  }
  return { format, records, errors, skipped: [] };
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** NDJSON: the first line is a whole object that is not an export document. */
function looksLikeNdjson(text: string): boolean {
  const body = stripBom(text).trimStart();
  if (!body.startsWith('{')) return false;
  const firstLine = body.split('\n', 1)[0]!.trim();
  try {
    const first = JSON.parse(firstLine) as unknown;
    return isObject(first) && !Array.isArray(first.transactions);
  } catch {
    return false;
  }
}

export const jsonImporter: Importer = {
  format: 'json',
  detect({ text }) {
    const body = stripBom(text).trimStart();
    return (body.startsWith('[') || body.startsWith('{')) && !looksLikeNdjson(text);
  },
  parse(text) {
    let doc: unknown;
    try {
      doc = JSON.parse(stripBom(text));
    } catch (err) {
      throw new TxaError('IMPORT_FAILED', `the file is not valid JSON: ${(err as Error).message}`, { field: 'file' });
    }
    const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.transactions) ? doc.transactions : null;
    if (!list) {
      throw new TxaError('IMPORT_FAILED', 'expected a JSON array of transactions or a txa export {"export":…, "transactions":[…]}', { field: 'file' });
    }
    return parseItems(
      'json',
      list.map((value: unknown, i: number) => ({ line: i + 1, value })),
    );
  },
};

export const ndjsonImporter: Importer = {
  format: 'ndjson',
  detect({ text }) {
    return looksLikeNdjson(text);
  },
  parse(text) {
    const items: { line: number; value: unknown; error?: string }[] = [];
    stripBom(text)
      .split('\n')
      .forEach((raw, i) => {
        const line = raw.trim();
        if (line === '') return;
        try {
          items.push({ line: i + 1, value: JSON.parse(line) });
        } catch (err) {
          items.push({ line: i + 1, value: undefined, error: `not valid JSON: ${(err as Error).message}` });
        }
      });
    return parseItems('ndjson', items);
  },
};
