/**
 * The tax and income reports' SQL read (engine/ledger-rows.ts turns it into LedgerRows): every
 * row of the ledger filter in timestamp then id order, only the columns the tax ledger reads, its
 * income tag ids merged in and a mark for the rows the export's filter selects. Rows come in
 * flat batches of plain values, so the file worker can read them in the job's snapshot and post
 * them to the thread that computes the lots (exporters/chunked-file.ts, ledgerBatches).
 */
import type { Db } from './db.js';
import type { TxFilter } from '../core/filters.js';
import { whereOf } from './transactions.js';

/** What to read: plain data, so it can travel to a worker. */
export interface LedgerRead {
  workspaceId: string;
  /** The export's filter: its rows are marked `reported`. */
  filter: TxFilter;
  /** Only these wallets' rows, all of them (`txa check`'s roll-forward of the wallets that may differ); every wallet's when absent. */
  wallets?: readonly string[];
}

/**
 * A record's fields, at these offsets of its batch (record i starts at i × RECORD_WIDTH). The
 * columns many rows share (wallet, chain, token, direction, type) are one `kind`: an index into
 * the kinds the batches brought so far, so a record is few values to read, post and decode.
 */
export const F = {
  id: 0,
  ts: 1,
  kind: 2,
  amount: 3,
  fiatCents: 4,
  transferId: 5,
  /**
   * The other leg of the row's own transfer, as JSON [id, ts, wallet_id, chain, token_symbol,
   * token_address, token_decimals, amount, fiat_cents, tx_hash], or null (none, or a one-leg transfer).
   */
  counterpart: 6,
  /** The row's income tag ids in link order (an array), or null. */
  incomeTagIds: 7,
  /** Whether the export's filter selects the row. */
  reported: 8,
  /** The tx hash: the rows of one transaction (a fee and its trade) are found by it. */
  txHash: 9,
  /** Block number and the transaction's index in it, or null (the order of one second). */
  block: 10,
  position: 11,
} as const;
export const RECORD_WIDTH = 12;

/** A kind, as JSON: [wallet_id, chain, token_symbol, token_address, token_decimals, direction, type]. */
export type KindJson = string;

export interface LedgerBatch {
  records: unknown[];
  /** The kinds first used in this batch, numbered on from the previous batches' (from 0). */
  kinds: KindJson[];
}

/**
 * Records per batch, posted as one message. A batch's array (12,000 values, 96 KB) stays below
 * V8's large-object size (128 KB), so it dies young: 2,000 records took peak RSS from ≈ 190 to
 * 235–260 MB on 1M rows, at the same CPU time.
 */
const BATCH_ROWS = 1000;

/** The page cache while the ledger is read: 2 MB (SQLite's default; better-sqlite3 sets 16 MB). */
const LEDGER_CACHE_SIZE = -2000;

/**
 * The filter of every row a report's lots can come from: the whole workspace until the filter's
 * end, spam left out unless the export includes it (docs/transfers.md "Spam").
 */
export function ledgerFilter(filter: TxFilter): TxFilter {
  return { ...(filter.endTs === undefined ? {} : { endTs: filter.endTs }), ...(filter.spam === undefined ? {} : { spam: filter.spam }) };
}

/** Whether the ledger filter of `read` holds at least `n` rows (counting no further). */
export function ledgerHasRows(db: Db, read: LedgerRead, n: number): boolean {
  const w = whereOf(read.workspaceId, ledgerFilter(read.filter));
  return (
    (db
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM transactions t WHERE ${w.sql} LIMIT ?)`)
      .pluck()
      .get(...w.params, n) as number) >= n
  );
}

/** The records of `read`, in batches of BATCH_ROWS records (the last may hold fewer). */
export function* ledgerBatches(db: Db, read: LedgerRead): Generator<LedgerBatch> {
  // Every page is read about once, and the income links' sort keeps to the cache's budget
  // (spilling to a temporary file beyond it): a small cache takes ~30 MB off the peak, no time.
  // Set while none of the connection's statements runs (SQLite refuses it during a read).
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${LEDGER_CACHE_SIZE}`);
  try {
    const kindIds = new Map<KindJson, number>();
    let batch: LedgerBatch = { records: [], kinds: [] };
    for (const r of markReported(db, read, ledgerRecords(db, read))) {
      let kind = kindIds.get(r[F.kind] as KindJson);
      if (kind === undefined) {
        kind = kindIds.size;
        kindIds.set(r[F.kind] as KindJson, kind);
        batch.kinds.push(r[F.kind] as KindJson);
      }
      r[F.kind] = kind;
      for (let i = 0; i < RECORD_WIDTH; i++) batch.records.push(r[i]);
      if (batch.records.length === BATCH_ROWS * RECORD_WIDTH) {
        yield batch;
        batch = { records: [], kinds: [] };
      }
    }
    if (batch.records.length > 0) yield batch;
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

/**
 * The ledger filter's rows as records, `kind` as its JSON and `reported` still empty. Income tag
 * ids come from a second ordered read of the income tag links alone (incomeLinks), merged in.
 */
function* ledgerRecords(db: Db, read: LedgerRead): Generator<unknown[]> {
  const incomeIds = db.prepare(`SELECT id FROM tags WHERE workspace_id = ? AND type = 'income'`).pluck().all(read.workspaceId) as string[];
  const filter = { ...ledgerFilter(read.filter), ...(read.wallets && { walletIds: [...read.wallets] }) };
  const w = whereOf(read.workspaceId, filter);
  const stmt = db.prepare(
    `SELECT t.id, t.ts, json_array(t.wallet_id, t.chain, t.token_symbol, t.token_address, t.token_decimals, t.direction, t.type), t.amount, t.fiat_cents,
       t.transfer_id,
       iif(t.transfer_id IS NULL, NULL, (SELECT json_array(c.id, c.ts, c.wallet_id, c.chain, c.token_symbol, c.token_address, c.token_decimals, c.amount, c.fiat_cents, c.tx_hash)
         FROM transactions c WHERE c.transfer_id = t.transfer_id AND c.id <> t.id)),
       NULL, NULL, t.tx_hash, t.block, t.block_position
     FROM transactions t WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`,
  );
  const links = incomeLinks(db, read.workspaceId, filter, incomeIds);
  let link = links.next();
  try {
    for (const r of stmt.raw(true).iterate(...w.params) as IterableIterator<unknown[]>) {
      // The links are of this stream's rows, in its order: the next one is this row's or a later row's.
      while (!link.done && link.value[0] === r[F.id]) {
        ((r[F.incomeTagIds] as string[] | null) ??= []).push(link.value[1]);
        link = links.next();
      }
      yield r;
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
function incomeLinks(db: Db, workspaceId: string, filter: TxFilter, tagIds: string[]): Iterator<[string, string], undefined> {
  if (tagIds.length === 0) return [][Symbol.iterator]();
  const w = whereOf(workspaceId, filter);
  return db
    .prepare(
      `SELECT t.id, x.tag_id FROM transaction_tags x CROSS JOIN transactions t ON t.id = x.transaction_id
       WHERE x.tag_id IN (${tagIds.map(() => '?').join(', ')}) AND ${w.sql} ORDER BY t.ts ASC, t.id ASC`,
    )
    .raw(true)
    .iterate(...tagIds, ...w.params) as IterableIterator<[string, string]>;
}

/**
 * `records` (the ledger filter's rows, in timestamp then id order), each marked when the export's
 * filter selects it: a merge with the filter's keys in the same order, so memory stays flat.
 */
function* markReported(db: Db, read: LedgerRead, records: Iterable<unknown[]>): Generator<unknown[]> {
  const filter = read.filter;
  // A filter that narrows nothing but the end (and spam, as the ledger stream does) selects every row: no keys to read.
  if (Object.entries(filter).every(([k, v]) => k === 'endTs' || k === 'spam' || v === undefined)) {
    for (const r of records) {
      r[F.reported] = true;
      yield r;
    }
    return;
  }
  const w = whereOf(read.workspaceId, filter);
  const keys = db
    .prepare(`SELECT t.ts, t.id FROM transactions t WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`)
    .raw(true)
    .iterate(...w.params) as IterableIterator<[number, string]>;
  let next = keys.next();
  try {
    for (const r of records) {
      const id = r[F.id] as string;
      if (!next.done && next.value[1] !== id) {
        // Keys of rows the ledger stream does not hold (none, as its filter is wider) are passed over.
        const ts = r[F.ts] as number;
        while (!next.done && (next.value[0] < ts || (next.value[0] === ts && next.value[1] < id))) next = keys.next();
      }
      const reported = !next.done && next.value[1] === id;
      if (reported) next = keys.next();
      r[F.reported] = reported;
      yield r;
    }
  } finally {
    keys.return?.();
  }
}
