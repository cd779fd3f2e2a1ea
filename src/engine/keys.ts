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
}

/** What a verified key grants. */
export interface KeyGrant {
  keyId: string;
  workspaceId: string;
  access: Access;
}

const ACCESS_RANK: Record<Access, number> = { read: 0, write: 1, full: 2 };

export function allows(granted: Access, needed: Access): boolean {
  return ACCESS_RANK[granted] >= ACCESS_RANK[needed];
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** 32 base62 characters (~190 bits), rejection-sampled so every character is equally likely. */
function randomToken(length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function createKey(engine: Engine, workspaceId: string, input: { name?: string; access?: string }): { key: string; record: ApiKey } {
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
  };
  engine.write(() => {
    engine.workspace(workspaceId);
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

/** The grant of a presented key, or null for an unknown, malformed or revoked one. */
export function verifyKey(engine: Engine, presented: string): KeyGrant | null {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const digest = hashKey(presented);
  const row = apiKeyByHash(engine.db, digest.toString('hex'));
  if (!row || row.revoked_at !== null) return null;
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), digest)) return null;
  return { keyId: row.id, workspaceId: row.workspace_id, access: row.access as Access };
}
