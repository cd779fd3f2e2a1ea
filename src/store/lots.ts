/**
 * Lots in SQL (migration 21, docs/lots.md): the workspace's recorded transition allocation (a
 * header and its lines, replaced as a whole) and the picks of specific identification. Call the
 * writers inside a write transaction.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export type AllocationOrder = 'fifo' | 'hifo' | 'lifo' | 'specific';

export interface AllocationHeaderRow {
  workspace_id: string;
  /** `YYYY-MM-DD`: the lots left in the pool at the start of this day. */
  at: string;
  allocation_order: AllocationOrder;
  /** The method the pooled years were filed with. */
  cost_basis: 'fifo' | 'lifo' | 'hifo';
  recorded_at: string;
  actor: string;
}

export interface AllocationLineRow {
  wallet_id: string;
  asset_key: string;
  asset_symbol: string;
  /** null: the part of the wallet's balance no pooled lot covered. */
  lot_id: string | null;
  quantity: string;
  acquired_at: string | null;
  cost_cents: bigint | null;
}

export interface PickRow {
  workspace_id: string;
  disposal_id: string;
  lot_id: string;
  /** null: as much of the lot as the disposal still needs. */
  quantity: string | null;
  recorded_at: string;
  actor: string;
}

export function getAllocationHeader(db: Db, workspaceId: string): AllocationHeaderRow | undefined {
  return prepareCached(db, 'SELECT * FROM lot_allocations WHERE workspace_id = ?').get(workspaceId) as AllocationHeaderRow | undefined;
}

/** The recorded lines in their order; cost read as BigInt (cents never lose a digit). */
export function allocationLines(db: Db, workspaceId: string): AllocationLineRow[] {
  const rows = prepareCached(
    db,
    'SELECT wallet_id, asset_key, asset_symbol, lot_id, quantity, acquired_at, cost_cents FROM lot_allocation_lines WHERE workspace_id = ? ORDER BY seq',
  )
    .safeIntegers(true)
    .all(workspaceId) as AllocationLineRow[];
  return rows;
}

/** Replaces the workspace's allocation (header and lines) with this one. */
export function replaceAllocation(db: Db, header: AllocationHeaderRow, lines: readonly AllocationLineRow[]): void {
  prepareCached(db, 'DELETE FROM lot_allocations WHERE workspace_id = ?').run(header.workspace_id);
  prepareCached(db, 'INSERT INTO lot_allocations (workspace_id, at, allocation_order, cost_basis, recorded_at, actor) VALUES (?, ?, ?, ?, ?, ?)').run(
    header.workspace_id,
    header.at,
    header.allocation_order,
    header.cost_basis,
    header.recorded_at,
    header.actor,
  );
  const insert = prepareCached(
    db,
    `INSERT INTO lot_allocation_lines (workspace_id, seq, wallet_id, asset_key, asset_symbol, lot_id, quantity, acquired_at, cost_cents)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  lines.forEach((l, i) => {
    insert.run(header.workspace_id, i, l.wallet_id, l.asset_key, l.asset_symbol, l.lot_id, l.quantity, l.acquired_at, l.cost_cents);
  });
}

/** The picks of one disposal, or of the whole workspace, by disposal then in the order recorded. */
export function listPicks(db: Db, workspaceId: string, disposalId?: string): PickRow[] {
  const cols = 'SELECT workspace_id, disposal_id, lot_id, quantity, recorded_at, actor FROM lot_picks';
  if (disposalId !== undefined) {
    return prepareCached(db, `${cols} WHERE workspace_id = ? AND disposal_id = ? ORDER BY seq`).all(workspaceId, disposalId) as PickRow[];
  }
  return prepareCached(db, `${cols} WHERE workspace_id = ? ORDER BY disposal_id, seq`).all(workspaceId) as PickRow[];
}

/** Appends picks to a disposal's, after those already recorded. */
export function insertPicks(db: Db, picks: readonly PickRow[]): void {
  const next = prepareCached(db, 'SELECT ifnull(max(seq) + 1, 0) FROM lot_picks WHERE disposal_id = ?').pluck();
  const insert = prepareCached(db, 'INSERT INTO lot_picks (workspace_id, disposal_id, seq, lot_id, quantity, recorded_at, actor) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const p of picks) insert.run(p.workspace_id, p.disposal_id, next.get(p.disposal_id) as number, p.lot_id, p.quantity, p.recorded_at, p.actor);
}

/** Removes a disposal's picks; returns how many there were. */
export function deletePicks(db: Db, workspaceId: string, disposalId: string): number {
  return prepareCached(db, 'DELETE FROM lot_picks WHERE workspace_id = ? AND disposal_id = ?').run(workspaceId, disposalId).changes;
}

/**
 * `txa check`'s `unrecorded_allocation` (docs/check.md): when the workspace has no recorded
 * allocation, a row before `boundaryTs` (lots were pooled) and a disposal (an outflow that is no
 * own transfer's leg, nor spam nor an approval, of a non-zero amount) from `boundaryTs` on within
 * [startTs, endTs), the first such disposal; else undefined.
 */
export function firstUnallocatedDisposal(
  db: Db,
  workspaceId: string,
  boundaryTs: number,
  startTs: number | undefined,
  endTs: number | undefined,
): { transaction_id: string; wallet_id: string; wallet_label: string; ts: number } | undefined {
  if (getAllocationHeader(db, workspaceId)) return undefined;
  const pooled = prepareCached(
    db,
    "SELECT 1 FROM transactions WHERE workspace_id = ? AND ts < ? AND direction = 'inflow' AND spam = 0 AND amount_key <> '00' LIMIT 1",
  ).get(workspaceId, boundaryTs);
  if (!pooled) return undefined;
  return prepareCached(
    db,
    `SELECT t.id AS transaction_id, t.wallet_id, w.label AS wallet_label, t.ts FROM transactions t JOIN wallets w ON w.id = t.wallet_id
     WHERE t.workspace_id = ? AND t.ts >= ? AND t.ts < ? AND t.direction = 'outflow' AND t.transfer_id IS NULL
       AND t.spam = 0 AND t.type <> 'approval' AND t.amount_key <> '00' ORDER BY t.ts, t.id LIMIT 1`,
  ).get(workspaceId, Math.max(boundaryTs, startTs ?? boundaryTs), endTs ?? Number.MAX_SAFE_INTEGER) as
    | { transaction_id: string; wallet_id: string; wallet_label: string; ts: number }
    | undefined;
}
