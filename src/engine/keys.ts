/**
 * API keys for `txa serve` (local only): `txa_live_<random>`, shown once at creation and stored
 * only as a SHA-256 hash. Verification hashes the presented key, finds the row by its hash and
 * compares the hashes in constant time; a revoked key fails at once (no cache).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { oneOf } from '../core/filters.js';
import { apiKeyByHash, apiKeyExists, insertApiKey, listApiKeys, revokeApiKey } from '../store/keys.js';
import { memberById } from '../store/members.js';
import { ROLES, type Role } from '../core/members.js';
import { ensureOwner } from './owner.js';

export const ACCESS_LEVELS = ['read', 'write', 'full'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

const KEY_PREFIX = 'txa_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string | null;
  access: Access;
  /** The first characters of the key, enough to recognise it. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The member the key belongs to and acts as (docs/server.md "Teams"). */
  member_id: string | null;
}

/** What a verified key grants: its access level, and the role of the member it acts as. */
export interface KeyGrant {
  keyId: string;
  workspaceId: string;
  access: Access;
  memberId: string;
  role: Role;
}

const ACCESS_RANK: Record<Access, number> = { read: 0, write: 1, full: 2 };

export function allows(granted: Access, needed: Access): boolean {
  return ACCESS_RANK[granted] >= ACCESS_RANK[needed];
}

/** SHA-256 of a secret (a key, an invitation token): what the ledger keeps of it. */
export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** 32 base62 characters (~190 bits), rejection-sampled so every character is equally likely. */
export function randomToken(length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * A new key of `member_id` (default: the workspace's owner, docs/server.md "Teams"). Call inside
 * or outside a write: it opens its own, which nests into the caller's.
 */
export function createKey(engine: Engine, workspaceId: string, input: { name?: string; access?: string; member_id?: string }): { key: string; record: ApiKey } {
  const access = oneOf(input.access ?? 'full', ACCESS_LEVELS, 'access', 'INVALID_FIELD');
  const name = input.name?.trim() || null;
  if (name !== null && name.length > 100) throw new TxaError('INVALID_FIELD', 'name must be at most 100 characters', { field: 'name' });
  const key = KEY_PREFIX + randomToken();
  const record: ApiKey = {
    id: newId('key'),
    workspace_id: workspaceId,
    name,
    access,
    prefix: key.slice(0, KEY_PREFIX.length + 4),
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
    member_id: null,
  };
  engine.write(() => {
    engine.workspace(workspaceId);
    record.member_id = input.member_id === undefined ? ensureOwner(engine, workspaceId).id : liveMember(engine, workspaceId, input.member_id);
    insertApiKey(engine.db, record, hashKey(key).toString('hex'));
  });
  return { key, record };
}

export function listKeys(engine: Engine, workspaceId: string): ApiKey[] {
  engine.workspace(workspaceId);
  return listApiKeys(engine.db, workspaceId) as ApiKey[];
}

export function revokeKey(engine: Engine, workspaceId: string, keyId: string): ApiKey {
  return engine.write(() => {
    engine.workspace(workspaceId);
    if (!apiKeyExists(engine.db, workspaceId, keyId))
      throw new TxaError('KEY_NOT_FOUND', `API key ${keyId} not found`, { hint: 'List keys with: txa keys list' });
    revokeApiKey(engine.db, keyId, nowIso());
    return listKeys(engine, workspaceId).find((k) => k.id === keyId)!;
  });
}

function liveMember(engine: Engine, workspaceId: string, memberId: string): string {
  const m = memberById(engine.db, workspaceId, memberId);
  if (!m || m.removed_at !== null)
    throw new TxaError('MEMBER_NOT_FOUND', `member ${memberId} not found`, { field: 'member', hint: 'List members with: txa members list' });
  return m.id;
}

/**
 * The grant of a presented key, or null for an unknown, malformed or revoked one, or one whose
 * member is removed. One lookup by the key's hash (its unique index), joined to the member by
 * primary key: no cache, so a revocation or a role change holds from the next request.
 */
export function verifyKey(engine: Engine, presented: string): KeyGrant | null {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const digest = hashKey(presented);
  const row = apiKeyByHash(engine.db, digest.toString('hex'));
  if (!row || row.revoked_at !== null || row.member_id === null || row.removed_at !== null) return null;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), digest)) return null;
  if (!(ROLES as readonly (string | null)[]).includes(row.role)) return null;
  return { keyId: row.id, workspaceId: row.workspace_id, access: row.access as Access, memberId: row.member_id, role: row.role as Role };
}
