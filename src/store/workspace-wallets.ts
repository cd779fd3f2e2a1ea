/**
 * The wallet queries of sync, rules and check: a workspace's wallet ids and addresses, every
 * wallet's chain, and when each was last synced. (The rows themselves are store/ledger.ts's.)
 */
import type { Db } from './db.js';
import type { Chain } from '../core/types.js';

/** The workspace's wallet ids, oldest first. */
export function workspaceWalletIds(db: Db, workspaceId: string): string[] {
  return db.prepare('SELECT id FROM wallets WHERE workspace_id = ? ORDER BY created_at, id').pluck().all(workspaceId) as string[];
}

/** Every wallet of every workspace, oldest first, with its chain (`serve --sync-every`). */
export function allWalletChains(db: Db): { id: string; workspace_id: string; chain: Chain }[] {
  return db.prepare('SELECT id, workspace_id, chain FROM wallets ORDER BY created_at, id').all() as { id: string; workspace_id: string; chain: Chain }[];
}

export function setWalletSynced(db: Db, walletId: string, at: string): void {
  db.prepare('UPDATE wallets SET last_synced = ? WHERE id = ?').run(at, walletId);
}

/** The workspace's wallets' addresses, to tell own transfers. */
export function walletAddresses(db: Db, workspaceId: string): { id: string; chain: string; address: string }[] {
  return db.prepare('SELECT id, chain, address FROM wallets WHERE workspace_id = ?').all(workspaceId) as { id: string; chain: string; address: string }[];
}
