/** Row types and simple SQL of the small tables: workspaces, wallets, tags. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { Tag, Workspace } from '../core/types.js';

export interface WalletRow {
  id: string;
  workspace_id: string;
  address: string;
  chain: string;
  label: string;
  created_at: string;
  last_synced: string | null;
}

export function getWorkspace(db: Db, id: string): Workspace | undefined {
  return prepareCached(db, 'SELECT id, name, tier, base_currency, rate_limit, created_at FROM workspaces WHERE id = ?').get(id) as Workspace | undefined;
}

export function listWorkspaces(db: Db): Workspace[] {
  return prepareCached(db, 'SELECT id, name, tier, base_currency, rate_limit, created_at FROM workspaces ORDER BY created_at, id').all() as Workspace[];
}

export function insertWorkspace(db: Db, ws: Workspace): void {
  prepareCached(db, 'INSERT INTO workspaces (id, name, tier, base_currency, rate_limit, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    ws.id,
    ws.name,
    ws.tier,
    ws.base_currency,
    ws.rate_limit,
    ws.created_at,
  );
}

export function updateWorkspaceRow(db: Db, ws: Workspace): void {
  prepareCached(db, 'UPDATE workspaces SET name = ?, tier = ?, base_currency = ?, rate_limit = ? WHERE id = ?').run(
    ws.name,
    ws.tier,
    ws.base_currency,
    ws.rate_limit,
    ws.id,
  );
}

/** Whether any transaction or rate is stored in the workspace's base currency. */
export function workspaceHoldsValues(db: Db, id: string): boolean {
  const sql = 'SELECT EXISTS (SELECT 1 FROM transactions WHERE workspace_id = ?) OR EXISTS (SELECT 1 FROM rates WHERE workspace_id = ?)';
  return Boolean(prepareCached(db, sql).pluck().get(id, id));
}

export function getWallet(db: Db, workspaceId: string, id: string): WalletRow | undefined {
  return prepareCached(db, 'SELECT * FROM wallets WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as WalletRow | undefined;
}

export function findWalletByAddress(db: Db, workspaceId: string, chain: string, address: string): WalletRow | undefined {
  return prepareCached(db, 'SELECT * FROM wallets WHERE workspace_id = ? AND chain = ? AND address = ?').get(workspaceId, chain, address) as
    | WalletRow
    | undefined;
}

export function insertWallet(db: Db, w: WalletRow): void {
  prepareCached(db, 'INSERT INTO wallets (id, workspace_id, address, chain, label, created_at, last_synced) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    w.id,
    w.workspace_id,
    w.address,
    w.chain,
    w.label,
    w.created_at,
    w.last_synced,
  );
}

// usage_count: kept by triggers on the links (migration 16).
const TAG_SELECT = `SELECT g.id, g.name, g.type, g.color, g.description, g.workspace_id, g.created_by, g.created_at,
  g.usage_count FROM tags g`;

export function getTag(db: Db, workspaceId: string, id: string): Tag | undefined {
  return prepareCached(db, `${TAG_SELECT} WHERE g.id = ? AND g.workspace_id = ?`).get(id, workspaceId) as Tag | undefined;
}

export function listTags(db: Db, workspaceId: string): Tag[] {
  return prepareCached(db, `${TAG_SELECT} WHERE g.workspace_id = ? ORDER BY g.name_key, g.id`).all(workspaceId) as Tag[];
}

export function countTags(db: Db, workspaceId: string): number {
  return (prepareCached(db, 'SELECT count(*) AS n FROM tags WHERE workspace_id = ?').get(workspaceId) as { n: number }).n;
}

export function tagIdByNameKey(db: Db, workspaceId: string, nameKey: string): string | undefined {
  return (prepareCached(db, 'SELECT id FROM tags WHERE workspace_id = ? AND name_key = ?').get(workspaceId, nameKey) as { id: string } | undefined)?.id;
}

/** The CLI resolves tag names with the same key (core/tag-refs.ts). */
export { tagNameKey } from '../core/tag-refs.js';
