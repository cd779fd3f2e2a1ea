/**
 * CSV cells read by SQL, for exports that need no currency conversion: each row reaches JS as
 * one string, several times faster than hydrating Transaction objects. Every cell equals
 * exporters/csv.ts cellOf byte for byte; what SQL cannot reproduce exactly is signalled (null, or
 * a row with the wrong cell count) so the caller keeps the JS path.
 */
import type { Db } from './db.js';
import type { TxFilter } from '../core/filters.js';
import type { CsvColumn } from '../core/export-values.js';
import { whereOf } from './transactions.js';
import { EXCHANGE_CHAIN } from '../core/chains.js';
import { FIAT_EXACT, tagOrderAgrees, TS_EXACT, TX_FROM } from './sql-exact.js';
import { keyRangesOf, type KeyRanges, type RangeQuery } from './key-ranges.js';
import { NUMBER_CELL, ROW_END, TEXT_CELL } from './raw-rows.js';
import { TAG_TEXT_FN, useTagSets, type TagSets } from './tag-sets.js';

/** SQL text of raw-rows.ts's separators. */
const sqlText = (text: string) => `char(${[...text].map((c) => c.charCodeAt(0)).join(', ')})`;

const DAY_PATTERNS: Record<string, string> = { 'YYYY-MM-DD': '%Y-%m-%d', 'MM/DD/YYYY': '%m/%d/%Y', 'DD/MM/YYYY': '%d/%m/%Y' };
const TIME_PATTERNS: Record<string, string> = { 'HH:mm:ss': ' %H:%M:%S', 'HH:mm': ' %H:%M' };

/** strftime format of a `date_format` pattern (exporters/date-format.ts), or null if not one we know. */
function strftimeOf(pattern: string): string | null {
  const [day = '', time, ...rest] = pattern.split(' ');
  const d = DAY_PATTERNS[day];
  const t = time === undefined ? '' : TIME_PATTERNS[time];
  return d === undefined || t === undefined || rest.length ? null : d + t;
}

/** A cell SQL cannot reproduce exactly: an extra separator, so the row's cell count is off and the caller falls back. */
const NOT_EXACT = sqlText(TEXT_CELL);

/** The timestamp in a strftime format: date() and datetime() print the two usual ones a third faster. */
function formatted(format: string): string {
  if (format === '%Y-%m-%d') return "date(t.ts, 'unixepoch')";
  if (format === '%Y-%m-%d %H:%M:%S') return "datetime(t.ts, 'unixepoch')";
  return `strftime('${format}', t.ts, 'unixepoch')`;
}

/** Raw text of each column as cellOf gives it, before escaping (or NOT_EXACT); `tagSets`: TAG_TEXT_FN is defined. */
function rawCell(column: CsvColumn, dateFormat: string, tagSets: boolean): string {
  switch (column) {
    case 'date':
      return `iif(${TS_EXACT}, ${formatted(dateFormat)}, ${NOT_EXACT})`;
    case 'wallet_label':
      return 'w.label';
    case 'token':
      return 't.token_symbol';
    case 'chain':
      // An exchange wallet's rows have no chain (docs/storage.md "Exchange wallets").
      return `iif(t.chain = '${EXCHANGE_CHAIN}', '', t.chain)`;
    case 'fiat_value':
      // centsToString: sign, whole units, two decimals (string arithmetic, cheaper than printf).
      return `CASE WHEN t.fiat_cents IS NULL THEN ''
        WHEN NOT ${FIAT_EXACT} THEN ${NOT_EXACT}
        WHEN t.fiat_cents >= 0 THEN (t.fiat_cents / 100) || '.' || substr(100 + t.fiat_cents % 100, 2)
        ELSE '-' || (-t.fiat_cents / 100) || '.' || substr(100 + (-t.fiat_cents) % 100, 2) END`;
    case 'notes':
      return `coalesce(t.notes, '')`;
    case 'tags':
      if (tagSets) return `iif(t.tag_count > 0, ${TAG_TEXT_FN}(t.rowid), '')`;
      // Only rows that have tags probe the link table (migration 6 keeps tag_count). compareTagRefs
      // order: csvRawRows checks that NOCASE orders the ledger's tags the same way.
      return `iif(t.tag_count > 0, coalesce((SELECT group_concat(g.name, '; ' ORDER BY g.name COLLATE NOCASE, g.id) FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = t.id), ''), '')`;
    case 'attachments':
      return `iif(t.attachment_count > 0, coalesce((SELECT group_concat(a.file_name, '; ' ORDER BY a.uploaded_at, a.rowid) FROM attachments a WHERE a.transaction_id = t.id), ''), '')`;
    default:
      return `t.${column}`;
  }
}

/**
 * The raw cells (as exporters/csv.ts cellOf gives them, unescaped) of the matching rows in
 * timestamp order, each row one string: its cells joined by TEXT_CELL or NUMBER_CELL, then ROW_END
 * (raw-rows.ts; one string per row is the cheapest way out of SQLite). Null when SQL
 * cannot order or format this export as the JS writer does, or for a single column. A row whose
 * cell count is off holds a value SQL cannot reproduce (or a cell holding a separator): the
 * caller must then write the export with the JS writer. With `tagSets` (tag-sets.ts, their
 * texts as cellOf joins tag names), the tags come from them rather than a subquery per row.
 */
export function csvRawRows(
  db: Db,
  workspaceId: string,
  filter: TxFilter,
  columns: readonly CsvColumn[],
  dateFormat: string,
  tagSets?: TagSets | null,
): Iterable<string> | null {
  const row = rawRowSql(db, columns, dateFormat, tagSets);
  if (row === null) return null;
  const w = whereOf(workspaceId, filter);
  const rows = db.prepare(`SELECT ${row} ${TX_FROM} WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`).pluck();
  // Iterable, not an iterator: the query runs (and holds the connection) only once iterated.
  return { [Symbol.iterator]: () => rows.iterate(...w.params) as IterableIterator<string> };
}

/** One raw row's SQL expression, or null when SQL cannot order or format this export as the JS writer does. */
function rawRowSql(db: Db, columns: readonly CsvColumn[], dateFormat: string, tagSets: TagSets | null | undefined): string | null {
  const format = strftimeOf(dateFormat);
  // One column: an empty cell is written "" (csv-text.ts csvRow), which removing the marks would not do.
  if (format === null || columns.length < 2 || (columns.includes('tags') && !tagSets && !tagOrderAgrees(db))) return null;
  if (tagSets) useTagSets(db, tagSets);
  // concat, not concat_ws: a NULL cell would drop its separator. The fiat value is a plain number, never prefixed.
  const cells = columns.map((c, i) => `${i === 0 ? '' : `${sqlText(c === 'fiat_value' ? NUMBER_CELL : TEXT_CELL)}, `}${rawCell(c, format, !!tagSets)}`);
  return `concat(${cells.join(', ')}, ${sqlText(ROW_END)})`;
}

/**
 * The same raw rows cut into key ranges of `rows` rows (store/key-ranges.ts), for readers on two
 * threads; null when csvRawRows would be, or when SQLite would sort each range.
 */
export function csvRawRanges(
  db: Db,
  workspaceId: string,
  filter: TxFilter,
  columns: readonly CsvColumn[],
  dateFormat: string,
  rows: number,
  tagSets?: TagSets | null,
): { query: RangeQuery; ranges: KeyRanges; tagSets?: TagSets } | null {
  const row = rawRowSql(db, columns, dateFormat, tagSets);
  const cut = row === null ? null : keyRangesOf(db, row, whereOf(workspaceId, filter, 'walk', 'scan'), rows);
  return cut && tagSets ? { ...cut, tagSets } : cut;
}
