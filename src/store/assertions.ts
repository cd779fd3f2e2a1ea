/** Balance assertions (docs/check.md), and the wallet's tokens an assertion names. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface AssertionRow {
  id: string;
  wallet_id: string;
  wallet_label: string;
  token_symbol: string;
  token_address: string | null;
  balance: string;
  day: string;
  created_at: string;
}

export interface NewAssertion {
  id: string;
  workspace_id: string;
  wallet_id: string;
  token_symbol: string;
  token_address: string | null;
  token_decimals: number;
  balance: string;
  day: string;
  end_ts: number;
  created_at: string;
}

export interface WalletToken {
  symbol: string;
  address: string | null;
  decimals: number;
}

/** The wallet's tokens whose symbol (case-insensitively) or contract address is `token`. */
export function walletTokensNamed(db: Db, walletId: string, token: string): WalletToken[] {
  return prepareCached(
    db,
    `SELECT DISTINCT token_symbol AS symbol, token_address AS address, token_decimals AS decimals FROM transactions
       WHERE wallet_id = ? AND (token_symbol = ? COLLATE NOCASE OR token_address = lower(?))`,
  ).all(walletId, token, token) as WalletToken[];
}

/** The symbols of every token the wallet has rows of, sorted. */
export function walletTokenSymbols(db: Db, walletId: string): string[] {
  return prepareCached(db, 'SELECT DISTINCT token_symbol FROM transactions WHERE wallet_id = ? ORDER BY 1').pluck().all(walletId) as string[];
}

/** The id of the assertion of this wallet, token and day, if any. */
export function assertionIdOf(db: Db, walletId: string, token: Pick<WalletToken, 'symbol' | 'address'>, day: string): string | undefined {
  return prepareCached(
    db,
    "SELECT id FROM balance_assertions WHERE wallet_id = ? AND token_symbol = ? AND ifnull(token_address, '') = ifnull(?, '') AND day = ?",
  )
    .pluck()
    .get(walletId, token.symbol, token.address, day) as string | undefined;
}

export function updateAssertionBalance(db: Db, id: string, balance: string, at: string): void {
  prepareCached(db, 'UPDATE balance_assertions SET balance = ?, created_at = ? WHERE id = ?').run(balance, at, id);
}

export function insertAssertion(db: Db, a: NewAssertion): void {
  prepareCached(
    db,
    `INSERT INTO balance_assertions (id, workspace_id, wallet_id, token_symbol, token_address, token_decimals, balance, day, end_ts, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(a.id, a.workspace_id, a.wallet_id, a.token_symbol, a.token_address, a.token_decimals, a.balance, a.day, a.end_ts, a.created_at);
}

const SELECT = `SELECT a.id, a.wallet_id, w.label AS wallet_label, a.token_symbol, a.token_address, a.balance, a.day, a.created_at
  FROM balance_assertions a JOIN wallets w ON w.id = a.wallet_id`;

export function getAssertion(db: Db, id: string): AssertionRow | undefined {
  return prepareCached(db, `${SELECT} WHERE a.id = ?`).get(id) as AssertionRow | undefined;
}

/** The workspace's assertions (or one wallet's), by day, wallet label and token. */
export function listAssertionRows(db: Db, workspaceId: string, walletId: string | null): AssertionRow[] {
  return prepareCached(db, `${SELECT} WHERE a.workspace_id = ? AND (? IS NULL OR a.wallet_id = ?) ORDER BY a.day, w.label, a.token_symbol, a.id`).all(
    workspaceId,
    walletId,
    walletId,
  ) as AssertionRow[];
}

/** Deletes one assertion of the workspace; false when there is none. */
export function deleteAssertion(db: Db, workspaceId: string, id: string): boolean {
  return prepareCached(db, 'DELETE FROM balance_assertions WHERE id = ? AND workspace_id = ?').run(id, workspaceId).changes > 0;
}
