/** Idempotency keys of `txa serve` (docs/server.md, "Idempotency-Key"): a request's fingerprint, then its stored response. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface IdempotencyRow {
  fingerprint: string;
  state: 'running' | 'done';
  status: number;
  response: string;
}

/** Forgets every key still marked running (none can be, in a new process). */
export function dropRunningKeys(db: Db): void {
  prepareCached(db, "DELETE FROM idempotency_keys WHERE state = 'running'").run();
}

/** Forgets the key if it was created at or before `createdBefore` (expired). */
export function dropExpiredKey(db: Db, workspaceId: string, key: string, createdBefore: number): void {
  prepareCached(db, 'DELETE FROM idempotency_keys WHERE workspace_id = ? AND key = ? AND created_at <= ?').run(workspaceId, key, createdBefore);
}

export function getIdempotencyKey(db: Db, workspaceId: string, key: string): IdempotencyRow | undefined {
  return prepareCached(db, 'SELECT fingerprint, state, status, response FROM idempotency_keys WHERE workspace_id = ? AND key = ?').get(workspaceId, key) as
    | IdempotencyRow
    | undefined;
}

/** Claims a key for a request now running. */
export function insertRunningKey(db: Db, workspaceId: string, key: string, fingerprint: string, createdAt: number): void {
  prepareCached(db, "INSERT INTO idempotency_keys (workspace_id, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'running', ?)").run(
    workspaceId,
    key,
    fingerprint,
    createdAt,
  );
}

export function deleteIdempotencyKey(db: Db, workspaceId: string, key: string): void {
  prepareCached(db, 'DELETE FROM idempotency_keys WHERE workspace_id = ? AND key = ?').run(workspaceId, key);
}

/** Stores the response of the request that claimed the key. */
export function storeResponse(db: Db, workspaceId: string, key: string, status: number, body: string): void {
  prepareCached(db, "UPDATE idempotency_keys SET state = 'done', status = ?, response = ? WHERE workspace_id = ? AND key = ?").run(
    status,
    body,
    workspaceId,
    key,
  );
}
