/**
 * Closed periods over HTTP (docs/periods.md): GET|POST /periods and POST /periods/reopen with
 * their codes, the key's member id as the actor, a `full` key to close or reopen (a `write` or `read` key
 * may list), and the guard answering 409 PERIOD_CLOSED on a route that writes into a closed period.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { WS, seedLedger, type Seeded } from './seed.js';

let s: Seeded;
let app: FastifyInstance;
let full: string;

beforeEach(() => {
  s = seedLedger({ rows: 4 });
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  full = s.key('full');
});
afterEach(async () => {
  await app.close();
  s.engine.close();
});

async function call(key: string, opts: InjectOptions) {
  const res = await app.inject({ ...opts, headers: { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) } });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}
const close = (key: string, payload: Record<string, unknown>) =>
  call(key, { method: 'POST', url: '/api/v1/periods', payload: { workspace_id: WS, ...payload } });
const reopen = (key: string, payload: Record<string, unknown>) =>
  call(key, { method: 'POST', url: '/api/v1/periods/reopen', payload: { workspace_id: WS, ...payload } });

describe('periods routes', () => {
  it('closes (201) with the member of the key as actor, refuses a write into it with 409 PERIOD_CLOSED, reopens with a reason, lists the history', async () => {
    const closed = await close(full, { through: '2099-12-31', note: 'filed' });
    expect(closed.status).toBe(201);
    expect(closed.body.data).toMatchObject({ through: '2099-12-31', status: 'closed', note: 'filed' });
    expect(closed.body.data.closed_by).toMatch(/^mem_/);
    const tx = s.engine.db.prepare('SELECT id FROM transactions WHERE workspace_id = ? LIMIT 1').pluck().get(WS) as string;
    const refused = await call(full, { method: 'PATCH', url: `/api/v1/transactions/${tx}`, payload: { notes: 'late' } });
    expect([refused.status, refused.body.error.code, refused.body.error.field]).toEqual([409, 'PERIOD_CLOSED', tx]);
    const missing = await reopen(full, { through: '2099-12-31' });
    expect([missing.status, missing.body.error.code, missing.body.error.field]).toEqual([400, 'MISSING_REQUIRED_FIELD', 'reason']);
    const reopened = await reopen(full, { through: '2099-12-31', reason: 'amended' });
    expect([reopened.status, reopened.body.data.status, reopened.body.data.reason]).toEqual([200, 'reopened', 'amended']);
    const list = await call(full, { method: 'GET', url: `/api/v1/periods?workspace_id=${WS}` });
    expect(list.body.data.map((p: any) => p.history.map((h: any) => h.action))).toEqual([['close', 'reopen']]);
  });

  it('a date that is not a day is INVALID_FIELD through', async () => {
    const r = await close(full, { through: '2024-13-01' });
    expect([r.status, r.body.error.code, r.body.error.field]).toEqual([400, 'INVALID_FIELD', 'through']);
  });

  it('closing and reopening need a full key; a read key lists', async () => {
    for (const key of [s.key('read'), s.key('write')]) {
      expect((await close(key, { through: '2020-12-31' })).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await reopen(key, { through: '2020-12-31', reason: 'x' })).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    expect((await call(s.key('read'), { method: 'GET', url: `/api/v1/periods?workspace_id=${WS}` })).status).toBe(200);
  });
});
