/**
 * Transactions as JSON text built by SQL, for JSON exports that need no currency conversion:
 * each row is byte for byte the JSON.stringify of its Transaction (store/transactions.ts
 * toTransaction; json_quote escapes strings exactly as JSON.stringify does), several times
 * faster than hydrating objects. A row SQL cannot reproduce comes back as its bare id, for the
 * caller to serialise: attachments (their URLs are signed by the engine), a timestamp or fiat
 * value outside the exact ranges, an unknown chain, type or direction (known ones need no JSON
 * escaping), or tags SQLite would order differently.
 * JSON text starts with `{`; an id comes after a space, so the two never mix up.
 */
import type { Db } from './db.js';
import type { TxFilter } from '../core/filters.js';
import { CHAIN_INFO } from '../core/chains.js';
import { CHAINS, TX_TYPES } from '../core/types.js';
import { whereOf } from './transactions.js';
import { FIAT_EXACT, tagOrderAgrees, TS_EXACT, TX_FROM } from './sql-exact.js';
import { keyRangesOf, rangeQuery, type KeyRanges, type RangeQuery } from './key-ranges.js';
import { TAG_TEXT_FN, useTagSets, type TagSets } from './tag-sets.js';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** JSON.stringify(Number(centsToString(cents))): whole units when the cents are round, no trailing zero. */
const FIAT = `CASE WHEN t.fiat_cents IS NULL THEN 'null'
  WHEN t.fiat_cents % 100 = 0 THEN (t.fiat_cents / 100) || ''
  WHEN t.fiat_cents % 10 = 0 THEN iif(t.fiat_cents < 0, '-', '') || (abs(t.fiat_cents) / 100) || '.' || (abs(t.fiat_cents) % 100 / 10)
  ELSE iif(t.fiat_cents < 0, '-', '') || (abs(t.fiat_cents) / 100) || '.' || substr(100 + abs(t.fiat_cents) % 100, 2) END`;

/**
 * explorerUrl as JSON text: the chain's explorer and the hash when it is a 0x-prefixed 32-byte
 * hex hash (a Bitcoin txid: 64 lower-case hex digits; such a URL needs no escaping), else "". unhex() is NULL for any character that is not
 * a hex digit (GLOB '*[^0-9a-fA-F]*' costs 4× more).
 */
const EXPLORER_URL = `iif(t.chain = 'bitcoin',
  iif(length(t.tx_hash) = 64 AND t.tx_hash = lower(t.tx_hash) AND unhex(t.tx_hash) IS NOT NULL, ${quote(`"${CHAIN_INFO.bitcoin.explorerTx}`)} || t.tx_hash || '"', '""'),
  iif(length(t.tx_hash) = 66 AND substr(t.tx_hash, 1, 2) = '0x' AND unhex(substr(t.tx_hash, 3)) IS NOT NULL,
  '"' || CASE t.chain ${Object.entries(CHAIN_INFO)
    .map(([chain, info]) => `WHEN ${quote(chain)} THEN ${quote(info.explorerTx)}`)
    .join(' ')} END || t.tx_hash || '"', '""'))`;

/** The tags as TagRef objects in compareTagRefs order, from TAG_TEXT_FN when `tagSets` (their texts: JSON.stringify of the tags). */
const tags = (tagSets: boolean) =>
  tagSets
    ? `iif(t.tag_count = 0, '[]', ${TAG_TEXT_FN}(t.rowid))`
    : `iif(t.tag_count = 0, '[]', (SELECT '[' || group_concat(concat('{"id":', json_quote(g.id), ',"name":', json_quote(g.name), ',"color":', json_quote(g.color), '}'), ','
  ORDER BY g.name COLLATE NOCASE, g.id) || ']' FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = t.id))`;

/** The transfer object of toTransaction, or null. */
const TRANSFER = `iif(t.transfer_id IS NULL, 'null', (SELECT concat('{"id":', json_quote(tr.id), ',"counterpart_id":',
  json_quote((SELECT c.id FROM transactions c WHERE c.transfer_id = t.transfer_id AND c.id <> t.id)),
  ',"kind":', json_quote(tr.kind), ',"matched_by":', json_quote(tr.matched_by), '}') FROM transfers tr WHERE tr.id = t.transfer_id))`;

const transaction = (tagSets: boolean) => `concat('{"id":', json_quote(t.id), ',"tx_hash":', json_quote(t.tx_hash), ',"wallet_id":', json_quote(t.wallet_id),
  ',"wallet_label":', json_quote(w.label), ',"chain":', '"' || t.chain || '"', ',"from_address":', json_quote(t.from_address),
  ',"to_address":', json_quote(t.to_address), ',"token":{"symbol":', json_quote(t.token_symbol), ',"address":', json_quote(t.token_address),
  ',"decimals":', t.token_decimals, '},"amount":', json_quote(t.amount), ',"fiat_value":', ${FIAT}, ',"direction":', '"' || t.direction || '"',
  ',"type":', '"' || t.type || '"', ',"timestamp":"', replace(datetime(t.ts, 'unixepoch'), ' ', 'T'), 'Z","tags":', ${tags(tagSets)},
  ',"notes":', json_quote(t.notes), ',"attachments":[],"explorer_url":', ${EXPLORER_URL}, ',"transfer":', ${TRANSFER},
  ',"fiat_value_source":', json_quote(t.fiat_value_source), ',"spam":', iif(t.spam = 1, 'true', 'false'), '}')`;

/** The rows SQL prints exactly (see the module comment); `tagsInOrder` from tagOrderAgrees. */
function exactWhen(tagsInOrder: boolean): string {
  return `${TS_EXACT} AND ${FIAT_EXACT}
    AND typeof(t.token_decimals) = 'integer' AND t.attachment_count = 0 AND t.chain IN (${CHAINS.map(quote).join(', ')})
    AND t.type IN (${TX_TYPES.map(quote).join(', ')}) AND t.direction IN ('inflow', 'outflow')
    ${tagsInOrder ? '' : 'AND t.tag_count = 0'}`;
}

/** Each row's JSON text, or a space and its id when SQL cannot print it exactly. */
function rowText(db: Db, tagSets: TagSets | null | undefined): string {
  if (tagSets) useTagSets(db, tagSets);
  return `iif(${exactWhen(!!tagSets || tagOrderAgrees(db))}, ${transaction(!!tagSets)}, ' ' || t.id)`;
}

/**
 * The matching transactions in timestamp order: each the JSON text of its Transaction, or a
 * space and its id when SQL cannot print it exactly. With `tagSets` (tag-sets.ts, their texts
 * the JSON of the tags), the tags come from them rather than a subquery per row.
 */
export function transactionJsonRows(db: Db, workspaceId: string, filter: TxFilter, tagSets?: TagSets | null): Iterable<string> {
  const w = whereOf(workspaceId, filter);
  const rows = db.prepare(`SELECT ${rowText(db, tagSets)} ${TX_FROM} WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`).pluck();
  // Iterable, not an iterator: the query runs (and holds the connection) only once iterated.
  return { [Symbol.iterator]: () => rows.iterate(...w.params) as IterableIterator<string> };
}

/**
 * The same rows cut into key ranges of `rows` rows (store/key-ranges.ts), for readers on two
 * threads; null when SQLite would sort each range (no index serves the filter in time order).
 */
export function transactionJsonRanges(
  db: Db,
  workspaceId: string,
  filter: TxFilter,
  rows: number,
  tagSets?: TagSets | null,
): { query: RangeQuery; ranges: KeyRanges; tagSets?: TagSets; packed: RangeQuery } | null {
  const where = whereOf(workspaceId, filter, 'walk', 'scan');
  const text = rowText(db, tagSets);
  const cut = keyRangesOf(db, text, where, rows);
  if (!cut) return null;
  // The whole range in one value, rows in the subquery's order (an ordered subquery is not
  // flattened into an aggregate), as UTF-8 bytes: no string per row for JS to join and encode.
  const one = rangeQuery(`${text} AS text`, where);
  const packed = {
    sql: `SELECT CAST(group_concat(text, ',' || char(10)) AS BLOB), count(*), count(*) FILTER (WHERE substr(text, 1, 1) = ' ') FROM (${one.sql})`,
    params: one.params,
  };
  return { ...cut, packed, ...(tagSets ? { tagSets } : {}) };
}
