/** The workspace's wallets and holdings, for the names of a journal's accounts (exporters/journal/names.ts). */
import type { Db } from './db.js';
import { dayOf } from '../core/dates.js';

/**
 * The workspace's wallets and what each holds, whatever the export's filter selects: journals name
 * their accounts and commodities from it, so that two exports of one ledger name them alike.
 */
export interface LedgerCatalog {
  /** In the order they were added (created_at, id). */
  /** An exchange wallet (`kind` `exchange`) has the internal chain `exchange` and its id as address (docs/storage.md). */
  wallets: { id: string; label: string; chain: string; address: string; kind: 'address' | 'exchange'; exchange: string | null }[];
  /** Each wallet and token that has rows, with how many. */
  holdings: { walletId: string; symbol: string; address: string | null; rows: number }[];
  /** The day (`YYYY-MM-DD`) of the workspace's first transaction; null when it has none. */
  firstDay: string | null;
}

export function ledgerCatalog(db: Db, workspaceId: string): LedgerCatalog {
  const wallets = db
    .prepare('SELECT id, label, chain, address, kind, exchange FROM wallets WHERE workspace_id = ? ORDER BY created_at, id')
    .all(workspaceId) as LedgerCatalog['wallets'];
  const holdings = db
    .prepare(
      `SELECT wallet_id AS walletId, token_symbol AS symbol, token_address AS address, count(*) AS rows FROM transactions
       WHERE workspace_id = ? GROUP BY wallet_id, token_symbol, token_address ORDER BY wallet_id, token_symbol, token_address`,
    )
    .all(workspaceId) as LedgerCatalog['holdings'];
  const first = db.prepare('SELECT ts FROM transactions WHERE workspace_id = ? ORDER BY ts LIMIT 1').pluck().get(workspaceId) as number | undefined;
  return { wallets, holdings, firstDay: first === undefined ? null : dayOf(first) };
}
