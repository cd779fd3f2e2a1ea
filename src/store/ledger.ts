/** Row types and simple SQL of the small tables: workspaces, wallets, tags. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { Tag, TagRef, Workspace } from '../core/types.js';
import { tagNameKey } from '../core/tag-refs.js';

export interface WalletRow {
  id: string;
  workspace_id: string;
  /** docs/storage.md "Exchange wallets": an exchange wallet's address is its own id, its chain `exchange`. */
  kind: 'address' | 'exchange';
  exchange: string | null;
  address: string;
  chain: string;
  label: string;
  created_at: string;
  last_synced: string | null;
}

export function getWorkspace(db: Db, id: string): Workspace | undefined {
  return prepareCached(db, 'SELECT id, name, tier, base_currency, jurisdiction, rate_limit, created_at FROM workspaces WHERE id = ?').get(id) as
    | Workspace
    | undefined;
}

export function listWorkspaces(db: Db): Workspace[] {
  return prepareCached(
    db,
    'SELECT id, name, tier, base_currency, jurisdiction, rate_limit, created_at FROM workspaces ORDER BY created_at, id',
  ).all() as Workspace[];
}

export function insertWorkspace(db: Db, ws: Workspace): void {
  prepareCached(db, 'INSERT INTO workspaces (id, name, tier, base_currency, jurisdiction, rate_limit, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    ws.id,
    ws.name,
    ws.tier,
    ws.base_currency,
    ws.jurisdiction,
    ws.rate_limit,
    ws.created_at,
  );
}

export function updateWorkspaceRow(db: Db, ws: Workspace): void {
  prepareCached(db, 'UPDATE workspaces SET name = ?, tier = ?, base_currency = ?, jurisdiction = ?, rate_limit = ? WHERE id = ?').run(
    ws.name,
    ws.tier,
    ws.base_currency,
    ws.jurisdiction,
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
  prepareCached(
    db,
    'INSERT INTO wallets (id, workspace_id, kind, exchange, address, chain, label, created_at, last_synced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(w.id, w.workspace_id, w.kind, w.exchange, w.address, w.chain, w.label, w.created_at, w.last_synced);
}

export function walletIdTaken(db: Db, id: string): boolean {
  return prepareCached(db, 'SELECT 1 FROM wallets WHERE id = ?').get(id) !== undefined;
}

/** How many of the workspace's wallets are on `chain`. */
export function walletCountOn(db: Db, workspaceId: string, chain: string): number {
  return prepareCached(db, 'SELECT count(*) FROM wallets WHERE workspace_id = ? AND chain = ?').pluck().get(workspaceId, chain) as number;
}

/** The workspace's wallets with this label (on `chain`, when given). */
export function walletsLabelled(db: Db, workspaceId: string, label: string, chain: string | null): WalletRow[] {
  return prepareCached(db, 'SELECT * FROM wallets WHERE workspace_id = ? AND label = ? AND (? IS NULL OR chain = ?)').all(
    workspaceId,
    label,
    chain,
    chain,
  ) as WalletRow[];
}

/** The workspace's wallets (on one chain, when given): their count and a page of them, oldest first. */
export function walletPage(db: Db, workspaceId: string, chain: string | undefined, limit: number, offset: number): { total: number; rows: WalletRow[] } {
  const where = chain ? 'workspace_id = ? AND chain = ?' : 'workspace_id = ?';
  const args = chain ? [workspaceId, chain] : [workspaceId];
  const total = (prepareCached(db, `SELECT count(*) AS n FROM wallets WHERE ${where}`).get(...args) as { n: number }).n;
  const rows = prepareCached(db, `SELECT * FROM wallets WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as WalletRow[];
  return { total, rows };
}

/** The workspace's wallets' labels by id. */
export function walletLabels(db: Db, workspaceId: string): Map<string, string> {
  const rows = prepareCached(db, 'SELECT id, label FROM wallets WHERE workspace_id = ?').all(workspaceId) as Pick<WalletRow, 'id' | 'label'>[];
  return new Map(rows.map((w) => [w.id, w.label]));
}

/** The workspace's wallets' addresses, to tell own transfers. */
export function walletAddresses(db: Db, workspaceId: string): Pick<WalletRow, 'id' | 'chain' | 'address'>[] {
  return prepareCached(db, 'SELECT id, chain, address FROM wallets WHERE workspace_id = ?').all(workspaceId) as Pick<WalletRow, 'id' | 'chain' | 'address'>[];
}

/**
 * The addresses xpub wallets' syncs derived and walked (their cursors `esplora:<address>`,
 * docs/sync.md "Bitcoin"), each with its wallet: the wallet's addresses besides the key it stores.
 */
export function derivedAddresses(db: Db, workspaceId: string): Pick<WalletRow, 'id' | 'chain' | 'address'>[] {
  return prepareCached(
    db,
    "SELECT w.id, w.chain, substr(c.list, 9) AS address FROM wallets w JOIN sync_cursors c ON c.wallet_id = w.id WHERE w.workspace_id = ? AND c.list LIKE 'esplora:%'",
  ).all(workspaceId) as Pick<WalletRow, 'id' | 'chain' | 'address'>[];
}

export function setWalletLabel(db: Db, id: string, label: string): void {
  prepareCached(db, 'UPDATE wallets SET label = ? WHERE id = ?').run(label, id);
}

export function setWalletSynced(db: Db, id: string, at: string): void {
  prepareCached(db, 'UPDATE wallets SET last_synced = ? WHERE id = ?').run(at, id);
}

/** Deletes a wallet and its transactions (their links and attachment records go with them: ON DELETE CASCADE); the rollups are the caller's. */
export function deleteWalletRows(db: Db, id: string): void {
  prepareCached(db, 'DELETE FROM transactions WHERE wallet_id = ?').run(id);
  prepareCached(db, 'DELETE FROM wallets WHERE id = ?').run(id);
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

export function tagExists(db: Db, workspaceId: string, id: string): boolean {
  return prepareCached(db, 'SELECT 1 FROM tags WHERE id = ? AND workspace_id = ?').get(id, workspaceId) !== undefined;
}

/** The tag of this name key (tagNameKey), as a transaction shows it. */
export function tagRefByNameKey(db: Db, workspaceId: string, nameKey: string): TagRef | undefined {
  return prepareCached(db, 'SELECT id, name, color FROM tags WHERE workspace_id = ? AND name_key = ?').get(workspaceId, nameKey) as TagRef | undefined;
}

/** The workspace's income tags, by id. */
export function incomeTagNames(db: Db, workspaceId: string): Map<string, string> {
  const rows = prepareCached(db, `SELECT id, name FROM tags WHERE workspace_id = ? AND type = 'income'`).all(workspaceId) as { id: string; name: string }[];
  return new Map(rows.map((t) => [t.id, t.name]));
}

/** Stores a new tag (its name key from its name; `usage_count` starts at 0). */
export function insertTag(db: Db, tag: Tag): void {
  prepareCached(
    db,
    'INSERT INTO tags (id, workspace_id, name, name_key, type, color, description, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(tag.id, tag.workspace_id, tag.name, tagNameKey(tag.name), tag.type, tag.color, tag.description, tag.created_by, tag.created_at);
}

export function updateTagRow(db: Db, tag: Pick<Tag, 'id' | 'name' | 'type' | 'color' | 'description'>): void {
  prepareCached(db, 'UPDATE tags SET name = ?, name_key = ?, type = ?, color = ?, description = ? WHERE id = ?').run(
    tag.name,
    tagNameKey(tag.name),
    tag.type,
    tag.color,
    tag.description,
    tag.id,
  );
}

/** Deletes a tag; its links go with it (ON DELETE CASCADE). */
export function deleteTagRow(db: Db, id: string): void {
  prepareCached(db, 'DELETE FROM tags WHERE id = ?').run(id);
}

export function tagIdByNameKey(db: Db, workspaceId: string, nameKey: string): string | undefined {
  return (prepareCached(db, 'SELECT id FROM tags WHERE workspace_id = ? AND name_key = ?').get(workspaceId, nameKey) as { id: string } | undefined)?.id;
}

/** The CLI resolves tag names with the same key (core/tag-refs.ts). */
export { tagNameKey } from '../core/tag-refs.js';
