/**
 * The spam tables of migration 14: the user's verdicts on tokens (`token_marks`) and why each
 * flagged row was flagged (`spam_reasons`). The flag itself is `transactions.spam`, written with
 * the rollups through insert-transactions.ts.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

/** A user's verdict on a token of a chain: spam, or not spam (never flagged by the token checks). */
export interface TokenMarkRow {
  chain: string;
  address: string;
  spam: number;
  marked_at: string;
}

/** The workspace's verdicts by `chain:address`: true spam, false not spam. Small: read once per import or sync batch. */
export function tokenMarks(db: Db, workspaceId: string): Map<string, boolean> {
  const rows = prepareCached(db, 'SELECT chain, address, spam FROM token_marks WHERE workspace_id = ?').all(workspaceId) as TokenMarkRow[];
  return new Map(rows.map((r) => [`${r.chain}:${r.address}`, r.spam === 1]));
}

export function listTokenMarks(db: Db, workspaceId: string): TokenMarkRow[] {
  return prepareCached(db, 'SELECT chain, address, spam, marked_at FROM token_marks WHERE workspace_id = ? ORDER BY chain, address').all(
    workspaceId,
  ) as TokenMarkRow[];
}

/** Records a verdict, replacing the token's earlier one. */
export function setTokenMark(db: Db, workspaceId: string, mark: TokenMarkRow): void {
  prepareCached(db, 'INSERT OR REPLACE INTO token_marks (workspace_id, chain, address, spam, marked_at) VALUES (?, ?, ?, ?, ?)').run(
    workspaceId,
    mark.chain,
    mark.address,
    mark.spam,
    mark.marked_at,
  );
}

/** Why a row's flag is what it is; null forgets it (the row is no longer spam). */
export function setSpamReason(db: Db, transactionId: string, reason: string | null): void {
  if (reason === null) prepareCached(db, 'DELETE FROM spam_reasons WHERE transaction_id = ?').run(transactionId);
  else prepareCached(db, 'INSERT OR REPLACE INTO spam_reasons (transaction_id, reason) VALUES (?, ?)').run(transactionId, reason);
}

/**
 * The rows of a token whose flag a verdict turns: to spam, every row not spam that no person or
 * rule decided on; to not spam, the spam rows flagged for one of `reasons` (the token's own).
 */
export function tokenRowIds(db: Db, workspaceId: string, chain: string, address: string, toSpam: boolean, reasons: readonly string[]): string[] {
  // Found through the token's index (migration 17); `+t.ts` keeps SQLite from walking the
  // chain's time index instead just to skip the sort.
  const sql = `SELECT t.id FROM transactions t LEFT JOIN spam_reasons r ON r.transaction_id = t.id
    WHERE t.workspace_id = ? AND t.chain = ? AND t.token_address = ? AND `;
  if (toSpam) {
    return prepareCached(db, `${sql} t.spam = 0 AND r.reason IS NULL ORDER BY +t.ts, t.id`).pluck().all(workspaceId, chain, address) as string[];
  }
  const marks = reasons.map(() => '?').join(', ');
  return prepareCached(db, `${sql} t.spam = 1 AND r.reason IN (${marks}) ORDER BY +t.ts, t.id`)
    .pluck()
    .all(workspaceId, chain, address, ...reasons) as string[];
}

/** The workspace's rows flagged as address poisoning: few, found through the reasons table. */
export function poisoningRows(db: Db, workspaceId: string): { id: string; wallet_id: string; tx_hash: string }[] {
  return prepareCached(
    db,
    "SELECT t.id, t.wallet_id, t.tx_hash FROM spam_reasons r JOIN transactions t ON t.id = r.transaction_id WHERE r.reason = 'poisoning' AND t.workspace_id = ?",
  ).all(workspaceId) as { id: string; wallet_id: string; tx_hash: string }[];
}
