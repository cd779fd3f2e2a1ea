/** API keys (docs/server.md, "Keys"): only a key's SHA-256 is stored, with a prefix to recognise it by. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

/** A key as listed: everything but its hash. */
export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string | null;
  access: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The member the key belongs to and acts as (docs/server.md "Teams"). */
  member_id: string | null;
}

export function insertApiKey(
  db: Db,
  key: Pick<ApiKeyRow, 'id' | 'workspace_id' | 'name' | 'access' | 'prefix' | 'created_at' | 'member_id'>,
  keyHash: string,
): void {
  prepareCached(db, 'INSERT INTO api_keys (id, workspace_id, name, access, key_hash, prefix, created_at, member_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    key.id,
    key.workspace_id,
    key.name,
    key.access,
    keyHash,
    key.prefix,
    key.created_at,
    key.member_id,
  );
}

export function listApiKeys(db: Db, workspaceId: string): ApiKeyRow[] {
  return prepareCached(
    db,
    'SELECT id, workspace_id, name, access, prefix, created_at, last_used_at, revoked_at, member_id FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id',
  ).all(workspaceId) as ApiKeyRow[];
}

export function apiKeyExists(db: Db, workspaceId: string, id: string): boolean {
  return prepareCached(db, 'SELECT id FROM api_keys WHERE id = ? AND workspace_id = ?').get(id, workspaceId) !== undefined;
}

/** Revokes a key; a key revoked before keeps its first revocation time. */
export function revokeApiKey(db: Db, id: string, at: string): void {
  prepareCached(db, 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(at, id);
}

/** What checking a presented key needs, in one indexed lookup: the key by its hash, and its member's role and state. */
export interface KeyCheckRow {
  id: string;
  workspace_id: string;
  access: string;
  key_hash: string;
  revoked_at: string | null;
  member_id: string | null;
  role: string | null;
  removed_at: string | null;
}

/** The key with this hash (hex) and its member, for checking a presented key. */
export function apiKeyByHash(db: Db, keyHash: string): KeyCheckRow | undefined {
  return prepareCached(
    db,
    `SELECT k.id, k.workspace_id, k.access, k.key_hash, k.revoked_at, k.member_id, m.role, m.removed_at
     FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.key_hash = ?`,
  ).get(keyHash) as KeyCheckRow | undefined;
}
