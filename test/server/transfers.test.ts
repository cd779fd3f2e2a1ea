/** Own transfers, manual values and history over HTTP (fastify inject) on a real SQLite ledger: statuses, codes, the acting key. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { listKeys } from '../../src/engine/keys.js';
import { OTHER_WS, WS, seedLedger, type Seeded } from './seed.js';

let s: Seeded;
let app: FastifyInstance;
let key: string;
let rows: { id: string; workspace_id: string; wallet_id: string; token_symbol: string; amount: string; direction: string }[];

beforeEach(() => {
  s = seedLedger();
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  key = s.key('write');
  rows = s.engine.db.prepare('SELECT id, workspace_id, wallet_id, token_symbol, amount, direction FROM transactions ORDER BY id').all() as typeof rows;
});
afterEach(async () => {
  await app.close();
  s.engine.close();
});

async function call(opts: InjectOptions) {
  const res = await app.inject({ ...opts, headers: { authorization: `Bearer ${key}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** An outflow of the Ethereum wallet and an inflow of the Polygon one, same symbol, no more in than out. */
function pair() {
  const outs = rows.filter((r) => r.workspace_id === WS && r.direction === 'outflow' && r.wallet_id === 'wal_ethereum');
  for (const o of outs) {
    const i = rows.find(
      (r) =>
        r.workspace_id === WS &&
        r.direction === 'inflow' &&
        r.wallet_id === 'wal_polygon' &&
        r.token_symbol === o.token_symbol &&
        Number(r.amount) <= Number(o.amount),
    );
    if (i) return { out: o.id, into: i.id, other: outs.find((x) => x !== o)!.id };
  }
  throw new Error('the seed has no pair');
}

describe('own transfers over HTTP', () => {
  it('POST /transfers: 201 with both legs; again: 409 TRANSFER_EXISTS; two outflows or another workspace: 400 INVALID_TRANSFER', async () => {
    const { out, into, other } = pair();
    const created = await call({ method: 'POST', url: '/api/v1/transfers', payload: { workspace_id: WS, transaction_id: out, counterpart_id: into } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ kind: 'bridge', matched_by: 'user', legs: [{ id: out }, { id: into }] });
    const again = await call({ method: 'POST', url: '/api/v1/transfers', payload: { transaction_id: out, counterpart_id: into } });
    expect([again.status, again.body.error.code, again.body.error.field]).toEqual([409, 'TRANSFER_EXISTS', 'transaction_id']);
    const twoOut = await call({ method: 'POST', url: '/api/v1/transfers', payload: { transaction_id: other, counterpart_id: out } });
    expect([twoOut.status, twoOut.body.error.code, twoOut.body.error.field]).toEqual([400, 'INVALID_TRANSFER', 'counterpart_id']);
    const foreign = rows.find((r) => r.workspace_id === OTHER_WS)!.id;
    const cross = await call({ method: 'POST', url: '/api/v1/transfers', payload: { transaction_id: other, counterpart_id: foreign } });
    expect([cross.status, cross.body.error.code]).toEqual([400, 'INVALID_TRANSFER']);
    const list = await call({ method: 'GET', url: `/api/v1/transfers?workspace_id=${WS}&status=matched` });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([created.body.data.id]);
    const gone = await call({ method: 'DELETE', url: `/api/v1/transfers/${created.body.data.id}` });
    expect(gone.body).toEqual({ success: true, data: { id: created.body.data.id, deleted: true } });
    expect((await call({ method: 'DELETE', url: `/api/v1/transfers/${created.body.data.id}` })).status).toBe(404);
  });

  it('records the acting key on every change: history lists old and new values with the member id of the key', async () => {
    const id = rows.find((r) => r.workspace_id === WS)!.id;
    const patched = await call({ method: 'PATCH', url: `/api/v1/transactions/${id}`, payload: { fiat_value: 10.5 } });
    expect(patched.body.data).toMatchObject({ fiat_value: 10.5, fiat_value_source: 'manual' });
    const bad = await call({ method: 'PATCH', url: `/api/v1/transactions/${id}`, payload: { fiat_value: 1.234 } });
    expect([bad.status, bad.body.error.code, bad.body.error.field]).toEqual([400, 'INVALID_FIELD', 'fiat_value']);
    const history = await call({ method: 'GET', url: `/api/v1/transactions/${id}/history` });
    const keyId = listKeys(s.engine, WS).at(-1)!.member_id; // the key's member acts (docs/server.md "Teams")
    expect(history.body.data).toEqual([
      expect.objectContaining({
        event: 'transaction.updated',
        actor: keyId,
        changes: { fiat_value: { old: expect.any(Number), new: 10.5 }, fiat_value_source: { old: 'import', new: 'manual' } },
      }),
    ]);
  });
});
