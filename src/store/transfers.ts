/**
 * Own transfers in SQL: the `transfers` rows and their legs (transactions.transfer_id, migration
 * 7), the pairs users rejected, and the rows matching reads. Call the writers inside a write
 * transaction.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import { rejectionKey, type FreeLeg, type Leg } from '../core/transfer-legs.js';
import { EXCHANGE_CHAIN } from '../core/chains.js';
import { transactionId } from '../core/ids.js';
import { mayBeNetworkHash } from './transactions.js';
import type { TransferKind, TransferMatchedBy } from '../core/types.js';

export interface TransferRow {
  id: string;
  workspace_id: string;
  kind: TransferKind;
  matched_by: TransferMatchedBy;
  created_at: string;
}

/** A leg's columns as matching reads them (core/transfer-legs.ts Leg), `legs` counted in SQL. */
const LEG = `SELECT t.id, t.wallet_id, t.chain, t.tx_hash, t.token_symbol, t.token_address, t.amount, t.direction, t.type, t.ts,
  t.from_address, t.to_address, t.transfer_id,
  iif(t.transfer_id IS NULL, 0, (SELECT count(*) FROM transactions c WHERE c.transfer_id = t.transfer_id)) AS legs
  FROM transactions t`;

type LegRow = Omit<Leg, 'transfer'> & { transfer_id: string | null; legs: number };

const legOf = ({ transfer_id, legs, ...rest }: LegRow): Leg => ({ ...rest, transfer: transfer_id === null ? null : { id: transfer_id, legs } });

export function getTransfer(db: Db, workspaceId: string, id: string): TransferRow | undefined {
  return prepareCached(db, 'SELECT * FROM transfers WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as TransferRow | undefined;
}

/** The ids of a transfer's legs, outflow first. */
export function legIds(db: Db, transferId: string): string[] {
  return prepareCached(db, "SELECT id FROM transactions WHERE transfer_id = ? ORDER BY direction = 'inflow', id").pluck().all(transferId) as string[];
}

export function insertTransfer(db: Db, t: TransferRow, legs: string[]): void {
  prepareCached(db, 'INSERT INTO transfers (id, workspace_id, kind, matched_by, created_at) VALUES (?, ?, ?, ?, ?)').run(
    t.id,
    t.workspace_id,
    t.kind,
    t.matched_by,
    t.created_at,
  );
  for (const id of legs) setLeg(db, id, t.id);
}

/** Makes a row a leg of a transfer (or of none); the unique index refuses a second leg of one direction. */
export function setLeg(db: Db, txId: string, transferId: string | null): void {
  prepareCached(db, 'UPDATE transactions SET transfer_id = ? WHERE id = ?').run(transferId, txId);
}

export function setTransferMeta(db: Db, id: string, kind: TransferKind, matchedBy: TransferMatchedBy): void {
  prepareCached(db, 'UPDATE transfers SET kind = ?, matched_by = ? WHERE id = ?').run(kind, matchedBy, id);
}

/** Ends a transfer: its legs become free rows. */
export function deleteTransfer(db: Db, id: string): void {
  prepareCached(db, 'UPDATE transactions SET transfer_id = NULL WHERE transfer_id = ?').run(id);
  prepareCached(db, 'DELETE FROM transfers WHERE id = ?').run(id);
}

/** Matched transfers of a workspace, oldest first, one page. */
export function listTransferRows(db: Db, workspaceId: string, limit: number, offset: number): TransferRow[] {
  return prepareCached(db, 'SELECT * FROM transfers WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?').all(
    workspaceId,
    limit,
    offset,
  ) as TransferRow[];
}

export function countTransfers(db: Db, workspaceId: string): number {
  return prepareCached(db, 'SELECT count(*) FROM transfers WHERE workspace_id = ?').pluck().get(workspaceId) as number;
}

export function legsById(db: Db, workspaceId: string, ids: string[]): Leg[] {
  const stmt = prepareCached(db, `${LEG} WHERE t.id = ? AND t.workspace_id = ?`);
  return ids.flatMap((id) => {
    const row = stmt.get(id, workspaceId) as LegRow | undefined;
    return row ? [legOf(row)] : [];
  });
}

/** What the address test of a leg reads (accounting/transfers.ts counterpartyWallet, and its type): a row's other side and wallet. */
export type LegSide = Pick<Leg, 'type' | 'chain' | 'direction' | 'from_address' | 'to_address' | 'wallet_id'>;

/**
 * Those columns of rows by rowid, in one statement (rowid order): a read by id costs a lookup in
 * the id index before the row's, and thousands of bridge legs (engine/row-findings.ts) are read.
 */
export function legSidesByRowid(db: Db, rowids: readonly number[]): Map<number, LegSide> {
  const sides = new Map<number, LegSide>();
  if (rowids.length === 0) return sides;
  const stmt = prepareCached(
    db,
    'SELECT t.rowid, t.type, t.chain, t.direction, t.from_address, t.to_address, t.wallet_id FROM transactions t WHERE t.rowid IN (SELECT value FROM json_each(?)) ORDER BY t.rowid',
  ).raw(true);
  for (const r of stmt.iterate(JSON.stringify(rowids)) as IterableIterator<unknown[]>) {
    sides.set(r[0] as number, {
      type: r[1] as string,
      chain: r[2] as string,
      direction: r[3] as Leg['direction'],
      from_address: r[4] as string,
      to_address: r[5] as string,
      wallet_id: r[6] as string,
    });
  }
  return sides;
}

/** Rows that can be legs: not spam, not fees, not zero (the rows accounting/transfers.ts movesValue keeps). */
const CAN_BE_LEG = "t.spam = 0 AND t.type <> 'fee' AND t.amount <> '0'";

/** Whether the row may be a leg at all (not spam, not a fee, moves something): a user's match is held to the rule automatic matching follows. */
export function canBeLeg(db: Db, workspaceId: string, id: string): boolean {
  return prepareCached(db, `SELECT 1 FROM transactions t WHERE t.id = ? AND t.workspace_id = ? AND ${CAN_BE_LEG}`).get(id, workspaceId) !== undefined;
}

/** Rows read as arrays and shaped here: a whole-ledger pass reads many, and better-sqlite3 builds row objects a third slower. */
function* legsOf(stmt: Statement, params: unknown[]): Generator<Leg> {
  for (const r of stmt.raw(true).iterate(...params) as IterableIterator<unknown[]>) {
    yield {
      id: r[0] as string,
      wallet_id: r[1] as string,
      chain: r[2] as string,
      tx_hash: r[3] as string,
      token_symbol: r[4] as string,
      token_address: r[5] as string | null,
      amount: r[6] as string,
      direction: r[7] as Leg['direction'],
      type: r[8] as string,
      ts: r[9] as number,
      from_address: r[10] as string,
      to_address: r[11] as string,
      transfer: r[12] === null ? null : { id: r[12] as string, legs: r[13] as number },
    };
  }
}

/** The rows that can be legs at the given timestamps (both legs of one transaction share it), in time order: index lookups on tx_by_time. */
export function* legsAtTimes(db: Db, workspaceId: string, times: number[]): Generator<Leg> {
  const sorted = [...times].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i += 500) {
    const chunk = sorted.slice(i, i + 500);
    const stmt = prepareCached(db, `${LEG} WHERE t.workspace_id = ? AND t.ts IN (${chunk.map(() => '?').join(',')}) AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`);
    yield* legsOf(stmt, [workspaceId, ...chunk]);
  }
}

/** Every row of the workspace that can be a leg (of a time range, start inclusive, end exclusive), in time order, read lazily. */
export function legsInTimeOrder(db: Db, workspaceId: string, range: { startTs?: number; endTs?: number } = {}): Generator<Leg> {
  const sql = `${LEG} WHERE t.workspace_id = ? AND t.ts >= ? AND t.ts < ? AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`;
  return legsOf(db.prepare(sql), [workspaceId, range.startTs ?? -Infinity, range.endTs ?? Infinity]);
}

/** A free row that can be a leg, as proposals read it (accounting/transfers.ts FreeLeg), with its rowid and its amount as a binary float. */
export type FreeLegRow = FreeLeg & { rowid: number; value: number };

/** Per connection that has the SQL function: where the scan running on it puts its rows. */
const sinks = new WeakMap<Db, { rows?: FreeLegRow[] }>();

/** Free rows read per statement: the rows of the whole ledger at once held 600k objects (≈ 100 MB) on the 1M ledger. */
const FREE_LEG_CHUNK = 50_000;

/**
 * The free rows that can be legs (of a time range, start inclusive, end exclusive), in time order
 * (ts, then id), read from the covering index tx_free_legs (migration 30) alone, FREE_LEG_CHUNK
 * rows at a time, each chunk after the last row of the one before. SQLite hands each row to a
 * function inside its scan: a call costs a third of returning the row to JavaScript
 * (bench/RESULTS.md "Session 7, txa check"). Read them inside one transaction (one snapshot).
 * `tick` is called after each chunk is read (the report notes' worker tells it is alive).
 */
export function* freeLegs(
  db: Db,
  workspaceId: string,
  range: { startTs?: number; endTs?: number },
  chunk = FREE_LEG_CHUNK,
  tick?: () => void,
): Generator<FreeLegRow> {
  let sink = sinks.get(db);
  if (!sink) {
    const registered: { rows?: FreeLegRow[] } = {};
    db.function('txa_free_leg', { deterministic: false, directOnly: true }, (rowid, ts, inflow, chain, symbol, value, amount, walletId, id) => {
      registered.rows!.push({
        rowid: rowid as number,
        ts: ts as number,
        direction: inflow === 1 ? 'inflow' : 'outflow',
        chain: chain as string,
        token_symbol: symbol as string,
        value: value as number,
        amount: amount as string,
        wallet_id: walletId as string,
        id: id as string,
      });
      return null;
    });
    sinks.set(db, (sink = registered));
  }
  // The subquery's LIMIT keeps it from being flattened: its rows reach the function in index order.
  const stmt = prepareCached(
    db,
    `SELECT count(txa_free_leg(rowid, ts, inflow, chain, token_symbol, value, amount, wallet_id, id)) FROM (
       SELECT t.rowid AS rowid, t.ts AS ts, t.direction = 'inflow' AS inflow, t.chain AS chain, t.token_symbol AS token_symbol,
         CAST(t.amount AS REAL) AS value, t.amount AS amount, t.wallet_id AS wallet_id, t.id AS id
       FROM transactions t INDEXED BY tx_free_legs
       WHERE t.workspace_id = ? AND t.ts >= ? AND t.ts < ? AND (t.ts > ? OR t.id > ?) AND ${CAN_BE_LEG} AND t.transfer_id IS NULL
       ORDER BY t.ts, t.id LIMIT ?)`,
  );
  const start = range.startTs ?? -Infinity;
  const end = range.endTs ?? Infinity;
  let after: { ts: number; id: string } | null = null;
  for (;;) {
    const rows: FreeLegRow[] = [];
    sink.rows = rows;
    try {
      // After the last row read: from its second on, that second's rows of a higher id.
      stmt.get(workspaceId, after ? Math.max(after.ts, start) : start, end, after ? after.ts : -Infinity, after ? after.id : '', chunk);
    } finally {
      delete sink.rows;
    }
    tick?.();
    yield* rows;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1]!;
    after = { ts: last.ts, id: last.id };
  }
}

/** The id of the `fee` row of an outflow's wallet and transaction in its coin (engine/imports.ts: transfer key `fee:<address or symbol>:outflow:0`). */
const feeRowId = (walletId: string, txHash: string, token: string) => transactionId(walletId, txHash, `fee:${token}:outflow:0`);

/** An outflow's network fee in its own coin (Leg.fee), by its rowid: its hash and token, then the fee row by id. */
export function networkFeeByRowid(db: Db, rowid: number): string | null {
  const row = prepareCached(db, 'SELECT wallet_id, tx_hash, ifnull(token_address, token_symbol) FROM transactions WHERE rowid = ?').raw(true).get(rowid) as
    | [string, string, string]
    | undefined;
  if (!row) return null;
  return (
    (prepareCached(db, 'SELECT amount FROM transactions WHERE id = ?')
      .pluck()
      .get(feeRowId(...row)) as string | undefined) ?? null
  );
}

/**
 * Sets each outflow's network fee (Leg.fee): the amount of its wallet's `fee` row of the same
 * transaction and coin, found by the id that row's identity gives (engine/imports.ts: transfer key
 * `fee:<address or symbol>:outflow:0`), one primary-key probe each.
 */
export function withNetworkFees(db: Db, legs: Leg[]): Leg[] {
  const stmt = prepareCached(db, 'SELECT amount FROM transactions WHERE id = ?').pluck();
  for (const leg of legs) {
    if (leg.direction !== 'outflow') continue;
    leg.fee = (stmt.get(feeRowId(leg.wallet_id, leg.tx_hash, leg.token_address ?? leg.token_symbol)) as string | undefined) ?? null;
  }
  return legs;
}

/**
 * The free rows that can be legs and carry network hash `hash` in lower, upper or its own case, of
 * exchange accounts: probes of tx_exchange_hash. An exchange file's Bitcoin txid is stored as the
 * file writes it (the row's id follows from it, so a re-import finds the row), often in upper case.
 */
export function exchangeLegsByHash(db: Db, workspaceId: string, hash: string): Leg[] {
  // INDEXED BY: on its own the planner takes tx_by_chain and reads every exchange row per probe.
  const stmt = prepareCached(
    db,
    `${LEG} INDEXED BY tx_exchange_hash WHERE t.workspace_id = ? AND t.chain = '${EXCHANGE_CHAIN}' AND t.tx_hash IN (?, ?, ?) AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`,
  );
  return [...legsOf(stmt, [workspaceId, hash.toLowerCase(), hash.toUpperCase(), hash])];
}

const MAYBE_NETWORK_HASH = mayBeNetworkHash('t.tx_hash');

/** The hashes that may be network hashes (lower case) the workspace's exchange rows carry: one pass over tx_exchange_hash. */
export function exchangeNetworkHashes(db: Db, workspaceId: string): Set<string> {
  const stmt = prepareCached(
    db,
    `SELECT DISTINCT lower(t.tx_hash) FROM transactions t INDEXED BY tx_exchange_hash
     WHERE t.workspace_id = ? AND t.chain = '${EXCHANGE_CHAIN}' AND ${MAYBE_NETWORK_HASH}`,
  ).pluck();
  return new Set(stmt.all(workspaceId) as string[]);
}

/** The rows that can be legs and carry `hash` (any case), of a time range (start inclusive, end exclusive): a range of tx_by_time. */
export function legsByHashNear(db: Db, workspaceId: string, hash: string, startTs: number, endTs: number): Leg[] {
  const stmt = prepareCached(db, `${LEG} WHERE t.workspace_id = ? AND t.ts >= ? AND t.ts < ? AND lower(t.tx_hash) = ? AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`);
  return [...legsOf(stmt, [workspaceId, startTs, endTs, hash.toLowerCase()])];
}

/**
 * The rows that can be legs and carry one of `hashes` (lower case), in time order: one pass over the
 * workspace's rows with the hashes in a temporary index, where a lookup per hash would walk the
 * rows of its time window (legsByHashNear) once per exchange row.
 */
export function legsWithHashes(db: Db, workspaceId: string, hashes: readonly string[]): Leg[] {
  if (hashes.length === 0) return [];
  const stmt = prepareCached(
    db,
    `${LEG} WHERE t.workspace_id = ? AND lower(t.tx_hash) IN (SELECT value FROM json_each(?)) AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`,
  );
  return [...legsOf(stmt, [workspaceId, JSON.stringify(hashes)])];
}

/** The free rows of exchange accounts that can be legs and may carry a network hash, in time order: a whole-ledger pass. */
export function exchangeLegsWithHashes(db: Db, workspaceId: string): Leg[] {
  const stmt = prepareCached(
    db,
    `${LEG} INDEXED BY tx_exchange_hash WHERE t.workspace_id = ? AND t.chain = '${EXCHANGE_CHAIN}' AND ${MAYBE_NETWORK_HASH} AND t.transfer_id IS NULL AND ${CAN_BE_LEG} ORDER BY t.ts, t.id`,
  );
  return [...legsOf(stmt, [workspaceId])];
}

/** Remembers that the user unmatched a pair (inId '' for one leg), so it is never matched automatically again. */
export function addRejection(db: Db, workspaceId: string, outId: string, inId: string): void {
  prepareCached(db, 'INSERT OR IGNORE INTO transfer_rejections (workspace_id, out_id, in_id) VALUES (?, ?, ?)').run(workspaceId, outId, inId);
}

export function removeRejection(db: Db, outId: string, inId: string): void {
  prepareCached(db, 'DELETE FROM transfer_rejections WHERE out_id = ? AND in_id = ?').run(outId, inId);
}

/** The rejected pairs of a workspace as a lookup of `out\0in` keys (core/transfer-legs.ts rejectionKey). */
export function rejections(db: Db, workspaceId: string): Set<string> {
  const rows = prepareCached(db, 'SELECT out_id, in_id FROM transfer_rejections WHERE workspace_id = ?').all(workspaceId) as {
    out_id: string;
    in_id: string;
  }[];
  return new Set(rows.map((r) => rejectionKey(r.out_id, r.in_id)));
}
