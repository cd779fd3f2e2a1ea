/**
 * The wallet lists of sync and rules: a workspace's wallet ids, every wallet's chain. (A wallet's
 * own reads and writes are store/ledger.ts's.)
 */
import type { Db } from './db.js';
import type { Chain } from '../core/types.js';

/**
 * The workspace's wallet ids in the order they were added (the transition's allocation, docs/lots.md;
 * sync and rules): creation time, which has whole seconds, then the order the rows were stored.
 */
export function workspaceWalletIds(db: Db, workspaceId: string): string[] {
  return db.prepare('SELECT id FROM wallets WHERE workspace_id = ? ORDER BY created_at, rowid').pluck().all(workspaceId) as string[];
}

/** The workspace's address wallets, oldest first: those `wallet sync --all` syncs (an exchange account has nothing to sync). */
export function syncableWalletIds(db: Db, workspaceId: string): string[] {
  return db.prepare("SELECT id FROM wallets WHERE workspace_id = ? AND kind = 'address' ORDER BY created_at, id").pluck().all(workspaceId) as string[];
}

/** Every address wallet of every workspace, oldest first, with its chain (`serve --sync-every`). */
export function allWalletChains(db: Db): { id: string; workspace_id: string; chain: Chain }[] {
  return db.prepare("SELECT id, workspace_id, chain FROM wallets WHERE kind = 'address' ORDER BY created_at, id").all() as {
    id: string;
    workspace_id: string;
    chain: Chain;
  }[];
}
