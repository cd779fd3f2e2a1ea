/**
 * The tax and income reports' input (ExportJob.ledgerRows, docs/accounting.md): every row of the
 * workspace up to the report's end, read lean, each marked `reported` when the export's filter
 * selects it, and the asset table the ledger's `assets.json` extends.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import type { Convert } from './rates.js';
import { TxaError } from '../core/errors.js';
import type { TxFilter } from '../core/filters.js';
import type { Direction } from '../core/types.js';
import { isoSecondsByDay } from '../core/clock.js';
import { AssetTable, parseAssetEntries } from '../accounting/assets.js';
import type { LedgerRow } from '../accounting/tax-ledger.js';
import { compareTagRefs, whereOf } from '../store/transactions.js';

/**
 * The filter of every row a report's lots can come from: the whole workspace until the filter's
 * end, spam left out unless the export includes it (CONTRACT §9).
 */
export function ledgerFilter(filter: TxFilter): TxFilter {
  return { ...(filter.endTs === undefined ? {} : { endTs: filter.endTs }), ...(filter.spam === undefined ? {} : { spam: filter.spam }) };
}

/** The page cache while the ledger is read: 2 MB (SQLite's default; better-sqlite3 sets 16 MB). */
const LEDGER_CACHE_SIZE = -2000;

/** The ledgerFilter's rows in timestamp then id order, each marked when `filter` selects it, values converted by `convert`. */
export function* ledgerRows(reader: Engine, workspaceId: string, filter: TxFilter, convert: Convert): Generator<{ tx: LedgerRow; reported: boolean }> {
  // Every page is read about once, and the income links' sort keeps to the cache's budget
  // (spilling to a temporary file beyond it): a small cache takes ~30 MB off the peak, no time.
  // Set while none of the connection's statements runs (SQLite refuses it during a read).
  const cacheSize = reader.db.pragma('cache_size', { simple: true }) as number;
  reader.db.pragma(`cache_size = ${LEDGER_CACHE_SIZE}`);
  try {
    yield* markReported(reader, workspaceId, filter, readLedger(reader, workspaceId, ledgerFilter(filter), convert));
  } finally {
    reader.db.pragma(`cache_size = ${cacheSize}`);
  }
}

/**
 * The rows of `filter` in order, as the tax ledger reads them: only its columns, raw arrays
 * (row objects cost a third more), no tags, attachments or explorer URL. Income tags come from a
 * second ordered read of the income tag links alone (incomeLinks), merged in, and wallet labels
 * and tag names from maps of the few wallets and tags.
 */
function* readLedger(reader: Engine, workspaceId: string, filter: TxFilter, convert: Convert): Generator<LedgerRow> {
  const db = reader.db;
  const labels = new Map(db.prepare('SELECT id, label FROM wallets WHERE workspace_id = ?').raw(true).all(workspaceId) as [string, string][]);
  const income = db.prepare(`SELECT id, name FROM tags WHERE workspace_id = ? AND type = 'income'`).all(workspaceId) as { id: string; name: string }[];
  const incomeName = new Map(income.map((t) => [t.id, t.name]));
  const w = whereOf(workspaceId, filter);
  const stmt = db.prepare(
    `SELECT t.id, t.ts, t.wallet_id, t.chain, t.tx_hash, t.token_symbol, t.token_address, t.token_decimals, t.amount, t.fiat_cents, t.direction, t.type,
       t.transfer_id, iif(t.transfer_id IS NULL, NULL, (SELECT c.id FROM transactions c WHERE c.transfer_id = t.transfer_id AND c.id <> t.id))
     FROM transactions t WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`,
  );
  const none: readonly string[] = [];
  const links = incomeLinks(reader, workspaceId, filter, [...incomeName.keys()]);
  let link = links.next();
  const timestamp = isoSecondsByDay();
  try {
    for (const r of stmt.raw(true).iterate(...w.params) as IterableIterator<unknown[]>) {
      const id = r[0] as string;
      const ts = r[1] as number;
      const cents = convert(r[9] as number | null, ts);
      // The links are of this stream's rows, in its order: the next one is this row's or a later row's.
      let tagIds: string[] | undefined;
      while (!link.done && link.value[0] === id) {
        (tagIds ??= []).push(link.value[1]);
        link = links.next();
      }
      yield {
        id, timestamp: timestamp(ts), wallet_id: r[2] as string, wallet_label: labels.get(r[2] as string)!, chain: r[3] as string,
        tx_hash: r[4] as string, token: { symbol: r[5] as string, address: r[6] as string | null, decimals: r[7] as number }, amount: r[8] as string,
        fiat_cents: cents === null ? null : BigInt(cents), direction: r[10] as Direction, type: r[11] as string,
        transfer: r[12] === null ? null : { id: r[12] as string, counterpart_id: r[13] as string | null },
        income_tags: tagIds === undefined ? none : incomeTags(tagIds, incomeName),
      };
    }
  } finally {
    links.return?.();
  }
}

/**
 * [transaction id, tag id] of every income tag link of `filter`'s rows, in the rows' timestamp
 * then id order. One sorted read of the few income links costs a fraction of a tag lookup for
 * each of the many tagged rows (bench/RESULTS.md); CROSS JOIN keeps SQLite from walking every
 * row to find them.
 */
function incomeLinks(reader: Engine, workspaceId: string, filter: TxFilter, tagIds: string[]): Iterator<[string, string], undefined> {
  if (tagIds.length === 0) return [][Symbol.iterator]();
  const w = whereOf(workspaceId, filter);
  return reader.db
    .prepare(
      `SELECT t.id, x.tag_id FROM transaction_tags x CROSS JOIN transactions t ON t.id = x.transaction_id
       WHERE x.tag_id IN (${tagIds.map(() => '?').join(', ')}) AND ${w.sql} ORDER BY t.ts ASC, t.id ASC`,
    )
    .raw(true)
    .iterate(...tagIds, ...w.params) as IterableIterator<[string, string]>;
}

/** The names of income tag ids, in a transaction's tag order (compareTagRefs). */
function incomeTags(tagIds: string[], names: Map<string, string>): string[] {
  const refs = tagIds.map((id) => ({ id, name: names.get(id)!, color: '' }));
  return refs.sort(compareTagRefs).map((t) => t.name);
}

/**
 * `rows` (the ledgerFilter's rows, in timestamp then id order), each marked when `filter` selects
 * it: a merge with the filter's keys in the same order, so memory stays flat.
 */
function* markReported(reader: Engine, workspaceId: string, filter: TxFilter, rows: Iterable<LedgerRow>): Generator<{ tx: LedgerRow; reported: boolean }> {
  // A filter that narrows nothing but the end (and spam, as the ledger stream does) selects every row: no keys to read.
  if (Object.entries(filter).every(([k, v]) => k === 'endTs' || k === 'spam' || v === undefined)) {
    for (const tx of rows) yield { tx, reported: true };
    return;
  }
  const w = whereOf(workspaceId, filter);
  const keys = (reader.db.prepare(`SELECT t.ts, t.id FROM transactions t WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`).raw(true).iterate(...w.params)) as IterableIterator<[number, string]>;
  let next = keys.next();
  try {
    for (const tx of rows) {
      if (!next.done && next.value[1] !== tx.id) {
        // Keys of rows the ledger stream does not hold (none, as its filter is wider) are passed over.
        const ts = Date.parse(tx.timestamp) / 1000;
        while (!next.done && (next.value[0] < ts || (next.value[0] === ts && next.value[1] < tx.id))) next = keys.next();
      }
      const reported = !next.done && next.value[1] === tx.id;
      if (reported) next = keys.next();
      yield { tx, reported };
    }
  } finally {
    keys.return?.();
  }
}

/** The default asset table extended by `<ledger>.files/assets.json` when there is one. */
export function loadAssetTable(engine: Engine): AssetTable {
  const path = join(engine.filesDir, 'assets.json');
  if (!existsSync(path)) return new AssetTable();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TxaError('INVALID_FIELD', `the ledger's assets.json is not valid JSON: ${(err as Error).message}`, { field: 'assets' });
  }
  try {
    return new AssetTable(parseAssetEntries(doc));
  } catch (err) {
    if (err instanceof TxaError) throw new TxaError(err.code, `the ledger's assets.json: ${err.message}`, { field: err.field });
    throw err;
  }
}
