/**
 * CSV cells read by SQL, for exports that need no currency conversion: each row reaches JS as
 * one string, several times faster than hydrating Transaction objects. Every cell equals
 * exporters/csv.ts cellOf byte for byte; cases SQL cannot reproduce exactly return null so the
 * caller keeps the JS path.
 */
import type { Db } from './db.js';
import type { TxFilter } from '../core/filters.js';
import type { CsvColumn } from '../exporters/types.js';
import { compareTagRefs, whereOf } from './transactions.js';

/** Years 0000–9999: where `strftime` and `Date#toISOString` print the same digits. */
const MIN_TS = -62167219200;
const MAX_TS = 253402300799;
/** Below 2^51 cents the JS writer's cents → number → cents round trip is exact. */
const MAX_CENTS = 1e15;

const DAY_PATTERNS: Record<string, string> = { 'YYYY-MM-DD': '%Y-%m-%d', 'MM/DD/YYYY': '%m/%d/%Y', 'DD/MM/YYYY': '%d/%m/%Y' };
const TIME_PATTERNS: Record<string, string> = { 'HH:mm:ss': ' %H:%M:%S', 'HH:mm': ' %H:%M' };

/** strftime format of a `date_format` pattern (exporters/date-format.ts), or null if not one we know. */
function strftimeOf(pattern: string): string | null {
  const [day = '', time, ...rest] = pattern.split(' ');
  const d = DAY_PATTERNS[day];
  const t = time === undefined ? '' : TIME_PATTERNS[time];
  return d === undefined || t === undefined || rest.length ? null : d + t;
}

/** Raw text of each column as cellOf gives it, before escaping. */
function rawCell(column: CsvColumn, dateFormat: string): string {
  switch (column) {
    case 'date':
      return `strftime('${dateFormat}', t.ts, 'unixepoch')`;
    case 'wallet_label':
      return 'w.label';
    case 'token':
      return 't.token_symbol';
    case 'fiat_value':
      // centsToString: sign, whole units, two decimals.
      return `CASE WHEN t.fiat_cents IS NULL THEN '' ELSE printf('%s%d.%02d', CASE WHEN t.fiat_cents < 0 THEN '-' ELSE '' END, abs(t.fiat_cents) / 100, abs(t.fiat_cents) % 100) END`;
    case 'notes':
      return `coalesce(t.notes, '')`;
    case 'tags':
      // compareTagRefs order: csvRawRows checks that NOCASE orders the ledger's tags the same way.
      return `coalesce((SELECT group_concat(g.name, '; ' ORDER BY g.name COLLATE NOCASE, g.id) FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = t.id), '')`;
    case 'attachments':
      return `coalesce((SELECT group_concat(a.file_name, '; ' ORDER BY a.uploaded_at, a.rowid) FROM attachments a WHERE a.transaction_id = t.id), '')`;
    default:
      return `t.${column}`;
  }
}

/** True when SQLite's `name COLLATE NOCASE, id` orders every tag as compareTagRefs does (UTF-8 vs UTF-16 order can differ). */
function tagOrderAgrees(db: Db): boolean {
  const sql = db.prepare('SELECT id, name, color FROM tags ORDER BY name COLLATE NOCASE, id').all() as { id: string; name: string; color: string }[];
  const js = [...sql].sort(compareTagRefs);
  return js.every((t, i) => t === sql[i]);
}

/** True when some matching row has a timestamp or fiat value outside what the SQL cells reproduce exactly. */
function hasUnusualValues(db: Db, workspaceId: string, filter: TxFilter): boolean {
  const w = whereOf(workspaceId, filter);
  return (
    db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM transactions t WHERE ${w.sql} AND (typeof(t.ts) <> 'integer' OR t.ts < ${MIN_TS} OR t.ts > ${MAX_TS}
         OR typeof(t.fiat_cents) NOT IN ('integer', 'null') OR abs(t.fiat_cents) >= ${MAX_CENTS}))`,
      )
      .pluck()
      .get(...w.params) === 1
  );
}

const FROM = 'FROM transactions t JOIN wallets w ON w.id = t.wallet_id';

/** Separates a row's raw cells: a control character text rarely holds (rows where it does are re-read as arrays). */
export const CELL_SEPARATOR = '\x1f';

/**
 * The raw cells (as exporters/csv.ts cellOf gives them, unescaped) of the matching rows in
 * timestamp order, or null when this export is one SQL cannot reproduce exactly. A row comes as
 * one string, its cells joined by CELL_SEPARATOR (one string per row is the cheapest way out of
 * SQLite), or as an array when a cell itself holds the separator.
 */
export function csvRawRows(db: Db, workspaceId: string, filter: TxFilter, columns: readonly CsvColumn[], dateFormat: string): Iterable<string | string[]> | null {
  const format = strftimeOf(dateFormat);
  if (format === null || (columns.includes('tags') && !tagOrderAgrees(db)) || hasUnusualValues(db, workspaceId, filter)) return null;
  const w = whereOf(workspaceId, filter);
  const cells = columns.map((c) => rawCell(c, format)).join(', ');
  // The rowid first, to re-read the row when its cells cannot be told apart.
  const joined = db.prepare(`SELECT t.rowid || ' ' || concat_ws(char(31), ${cells}) ${FROM} WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`).pluck();
  const cellsOf = db.prepare(`SELECT ${cells} ${FROM} WHERE t.rowid = ?`).raw();
  return (function* () {
    for (const row of joined.iterate(...w.params) as IterableIterator<string>) {
      const space = row.indexOf(' ');
      const line = row.slice(space + 1);
      let separators = 0;
      for (let i = line.indexOf(CELL_SEPARATOR); i >= 0; i = line.indexOf(CELL_SEPARATOR, i + 1)) separators++;
      yield separators === columns.length - 1 ? line : (cellsOf.get(Number(row.slice(0, space))) as string[]);
    }
  })();
}
