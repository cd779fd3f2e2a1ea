/**
 * Opening lots in SQL (migration 26, docs/lots.md "Opening lots"): lots carried in from records
 * kept elsewhere, one row each, grouped by the import that added them. Call the writers inside a
 * write transaction.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface OpeningLotRow {
  id: string;
  workspace_id: string;
  wallet_id: string;
  import_id: string;
  /** The line of its file (the header is line 1). */
  line: number;
  token_symbol: string;
  token_address: string | null;
  token_decimals: number;
  /** Exact decimal. */
  quantity: string;
  /** `YYYY-MM-DD`. */
  acquired_on: string;
  cost_cents: bigint;
  note: string;
  identity: string;
  file_name: string | null;
  sha256: string;
  created_at: string;
  actor: string;
}

const COLUMNS =
  'id, workspace_id, wallet_id, import_id, line, token_symbol, token_address, token_decimals, quantity, acquired_on, cost_cents, note, identity, file_name, sha256, created_at, actor';

/** The workspace's opening lots, by day then wallet then line; `beforeDay` (`YYYY-MM-DD`, exclusive) narrows them. */
export function listOpeningLots(db: Db, workspaceId: string, beforeDay?: string): OpeningLotRow[] {
  const where = beforeDay === undefined ? '' : ' AND acquired_on < ?';
  const rows = prepareCached(db, `SELECT ${COLUMNS} FROM opening_lots WHERE workspace_id = ?${where} ORDER BY acquired_on, wallet_id, created_at, line, id`)
    .safeIntegers(true)
    .all(...(beforeDay === undefined ? [workspaceId] : [workspaceId, beforeDay])) as (Omit<OpeningLotRow, 'line' | 'token_decimals'> & {
    line: bigint;
    token_decimals: bigint;
  })[];
  return rows.map((r) => ({ ...r, line: Number(r.line), token_decimals: Number(r.token_decimals) }));
}

/** Whether the workspace has any opening lot (the ledger's readers skip the merge when not). */
export function hasOpeningLots(db: Db, workspaceId: string): boolean {
  return prepareCached(db, 'SELECT 1 FROM opening_lots WHERE workspace_id = ? LIMIT 1').get(workspaceId) !== undefined;
}

/** Which of `identities` the workspace already holds. */
export function knownIdentities(db: Db, workspaceId: string, identities: readonly string[]): Set<string> {
  const stmt = prepareCached(db, 'SELECT 1 FROM opening_lots WHERE workspace_id = ? AND identity = ?').pluck();
  return new Set(identities.filter((i) => stmt.get(workspaceId, i) !== undefined));
}

export function insertOpeningLots(db: Db, rows: readonly OpeningLotRow[]): void {
  const stmt = prepareCached(
    db,
    `INSERT INTO opening_lots (${COLUMNS}) VALUES (${COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  for (const r of rows) {
    stmt.run(
      r.id,
      r.workspace_id,
      r.wallet_id,
      r.import_id,
      r.line,
      r.token_symbol,
      r.token_address,
      r.token_decimals,
      r.quantity,
      r.acquired_on,
      r.cost_cents,
      r.note,
      r.identity,
      r.file_name,
      r.sha256,
      r.created_at,
      r.actor,
    );
  }
}

/** One import's lots. */
export function openingLotsOfImport(db: Db, workspaceId: string, importId: string): OpeningLotRow[] {
  return listOpeningLots(db, workspaceId).filter((r) => r.import_id === importId);
}

/** Removes one import's lots; how many. */
export function deleteOpeningImport(db: Db, workspaceId: string, importId: string): number {
  return prepareCached(db, 'DELETE FROM opening_lots WHERE workspace_id = ? AND import_id = ?').run(workspaceId, importId).changes;
}

/** The UTC day (`YYYY-MM-DD`) of each wallet's first row, spam included (a row is history whatever its verdict). */
export function firstRowDays(db: Db, workspaceId: string, walletIds: readonly string[]): Map<string, string> {
  const stmt = prepareCached(db, "SELECT strftime('%Y-%m-%d', min(ts), 'unixepoch') FROM transactions WHERE workspace_id = ? AND wallet_id = ?").pluck();
  const out = new Map<string, string>();
  for (const id of walletIds) {
    const day = stmt.get(workspaceId, id) as string | null;
    if (day) out.set(id, day);
  }
  return out;
}

/** The tokens of a wallet's rows whose symbol is `symbol` (any case), or whose contract address is it. */
export function walletTokens(db: Db, workspaceId: string, walletId: string, symbol: string): { symbol: string; address: string | null; decimals: number }[] {
  return prepareCached(
    db,
    `SELECT DISTINCT token_symbol AS symbol, token_address AS address, token_decimals AS decimals FROM transactions
     WHERE workspace_id = ? AND wallet_id = ? AND (token_symbol = ? COLLATE NOCASE OR token_address = lower(?))`,
  ).all(workspaceId, walletId, symbol, symbol) as { symbol: string; address: string | null; decimals: number }[];
}

/** The days of a wallet's opening lots (its removal is refused while one is in a closed period). */
export function walletOpeningDays(db: Db, walletId: string): string[] {
  return prepareCached(db, 'SELECT DISTINCT acquired_on FROM opening_lots WHERE wallet_id = ? ORDER BY acquired_on').pluck().all(walletId) as string[];
}
