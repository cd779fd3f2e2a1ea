/**
 * `Idempotency-Key` on POST (docs/server.md "Idempotency-Key", IETF draft, Stripe): the first request with a key
 * runs and its response is stored for 24 hours; the same key with the same request replays that
 * response; with a different request it is 422 IDEMPOTENCY_KEY_REUSED; while the first is still
 * running, 409 IDEMPOTENCY_KEY_IN_USE. Validation failures (400) and server errors (5xx) are not
 * stored, so the client can fix the request, or retry, under the same key.
 */
import { createHash } from 'node:crypto';
import type { Engine } from '../engine/engine.js';
import { TxaError } from '../core/errors.js';
import { nowSeconds } from '../core/clock.js';
import { deleteIdempotencyKey, dropExpiredKey, dropRunningKeys, getIdempotencyKey, insertRunningKey, storeResponse } from '../store/idempotency.js';

const TTL_SECONDS = 24 * 3600;
const MAX_KEY_LENGTH = 255;

export interface StoredResponse {
  status: number;
  body: string;
}

export type Claim = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

export function fingerprint(method: string, route: string, params: unknown, body: unknown, extra = ''): string {
  const h = createHash('sha256').update(`${method} ${route} ${JSON.stringify(params)} ${extra}\n`);
  h.update(Buffer.isBuffer(body) ? body : JSON.stringify(body ?? null));
  return h.digest('hex');
}

export class IdempotencyStore {
  constructor(private readonly engine: Engine) {
    // Nothing can still be running in a new process: a request cut off by a crash may be retried.
    engine.write(() => dropRunningKeys(engine.db));
  }

  static checkKey(key: string): void {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new TxaError('INVALID_FIELD', `the Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters`, { field: 'Idempotency-Key' });
    }
  }

  /** Claims the key for this request, or says what to answer instead. */
  claim(workspaceId: string, key: string, print: string): Claim {
    const now = nowSeconds();
    return this.engine.write(() => {
      const db = this.engine.db;
      dropExpiredKey(db, workspaceId, key, now - TTL_SECONDS);
      const row = getIdempotencyKey(db, workspaceId, key);
      if (!row) {
        insertRunningKey(db, workspaceId, key, print, now);
        return { kind: 'new' } as const;
      }
      if (row.fingerprint !== print) {
        throw new TxaError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request; use a new key for a new request', {
          field: 'Idempotency-Key',
        });
      }
      if (row.state === 'running') {
        throw new TxaError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being processed; retry later', { field: 'Idempotency-Key' });
      }
      return { kind: 'replay', response: { status: row.status, body: row.response } } as const;
    });
  }

  /** Stores the first response, or releases the key when the response must not be stored. */
  settle(workspaceId: string, key: string, response: StoredResponse): void {
    const db = this.engine.db;
    if (!db.open) return;
    if (response.status === 400 || response.status >= 500) {
      deleteIdempotencyKey(db, workspaceId, key);
      return;
    }
    storeResponse(db, workspaceId, key, response.status, response.body);
  }
}
