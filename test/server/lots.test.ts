/**
 * Lots over HTTP (fastify inject) on the worked example of test/lots/seed.ts: the routes of
 * docs/lots.md, their statuses and codes, the key's access level (reads `read`, writes `write`),
 * the acting key recorded, and every answer against the OpenAPI document the server serves.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { LotsLedger } from '../lots/seed.js';
import { type LotsServer, lotsServer } from './lots-harness.js';

let server: LotsServer;
let l: LotsLedger;
let write: string;
let read: string;
let call: LotsServer['call'];

beforeEach(() => {
  server = lotsServer();
  ({ l, write, read, call } = server);
});
afterEach(() => server.close());

describe('lots over HTTP', () => {
  it('serves open lots, the allocation and picks as the OpenAPI document describes them', async () => {
    const conforms = await server.conformance();
    const pooled = await call(read, { method: 'GET', url: `/api/v1/lots?workspace_id=${l.ws}&at=2024-12-31` });
    expect(pooled.status).toBe(200);
    conforms('/lots', 'get', '200', pooled.body);
    expect(pooled.body.data.lots.map((x: { lot: string }) => x.lot)).toEqual([l.ids.l1, l.ids.l2, l.ids.l3]);

    // Cached until the workspace changes: the same query after the allocation answers anew.
    const walletUrl = `/api/v1/lots?workspace_id=${l.ws}&at=2025-01-31&wallet_id=${l.wallets.gamma}`;
    for (let i = 0; i < 2; i++) expect((await call(read, { method: 'GET', url: walletUrl })).body.data).toMatchObject({ allocation: 'computed' });
    const dry = await call(write, { method: 'POST', url: '/api/v1/lots/allocation', payload: { workspace_id: l.ws, dry_run: true, order: 'hifo' } });
    expect(dry.status).toBe(200);
    conforms('/lots/allocation', 'post', '200', dry.body);
    expect((await call(read, { method: 'GET', url: `/api/v1/lots/allocation?workspace_id=${l.ws}` })).status).toBe(404);

    const created = await call(write, { method: 'POST', url: '/api/v1/lots/allocation', payload: { workspace_id: l.ws } });
    expect(created.status).toBe(201);
    conforms('/lots/allocation', 'post', '201', created.body);
    const keyId = server.writeKey().member_id; // the key's member acts (docs/server.md "Teams")
    expect(created.body.data.recorded_by).toBe(keyId);
    const got = await call(read, { method: 'GET', url: `/api/v1/lots/allocation?workspace_id=${l.ws}` });
    conforms('/lots/allocation', 'get', '200', got.body);
    expect(got.body.data).toEqual(created.body.data);
    const again = await call(write, { method: 'POST', url: '/api/v1/lots/allocation', payload: {} });
    expect([again.status, again.body.error.code, again.body.error.field]).toEqual([409, 'ALLOCATION_EXISTS', 'replace']);

    const picked = await call(write, {
      method: 'POST',
      url: '/api/v1/lots/picks',
      payload: { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l3, quantity: '0.4' }] },
    });
    expect(picked.status).toBe(201);
    conforms('/lots/picks', 'post', '201', picked.body);
    expect(picked.body.data[0]).toMatchObject({ lot: l.ids.l3, quantity: '0.4', recorded_by: keyId, after_sale: true });
    const listed = await call(read, { method: 'GET', url: `/api/v1/lots/picks?workspace_id=${l.ws}&disposal_id=${l.ids.s25}` });
    conforms('/lots/picks', 'get', '200', listed.body);
    const deleted = await call(write, { method: 'DELETE', url: `/api/v1/lots/picks/${l.ids.s25}` });
    conforms('/lots/picks/{disposal_id}', 'delete', '200', deleted.body);
    expect(deleted.body.data).toEqual({ disposal_id: l.ids.s25, deleted: 1 });

    const wallet = await call(read, { method: 'GET', url: walletUrl });
    expect(wallet.body.data).toMatchObject({
      scope: 'wallet',
      allocation: 'recorded',
      lots: [{ wallet_label: 'Gamma', lot: l.ids.l3, quantity: '1', cost_basis: 2500 }],
    });
  });

  it('refuses bad input with the API codes and writes nothing; a read key cannot write', async () => {
    const bad = async (opts: InjectOptions) => {
      const r = await call(write, opts);
      return [r.status, r.body.error.code, r.body.error.field];
    };
    expect(await bad({ method: 'GET', url: `/api/v1/lots?workspace_id=${l.ws}&at=2024-1-1` })).toEqual([400, 'INVALID_PARAMETERS', 'at']);
    expect(await bad({ method: 'GET', url: '/api/v1/lots' })).toEqual([400, 'MISSING_REQUIRED_FIELD', 'workspace_id']);
    expect(
      await bad({ method: 'POST', url: '/api/v1/lots/allocation', payload: { lines: [{ wallet: 'Nobody', lot: l.ids.l1, quantity: '1', line: 7 }] } }),
    ).toEqual([400, 'INVALID_ALLOCATION', 'line 7']);
    expect(await bad({ method: 'POST', url: '/api/v1/lots/allocation', payload: { lines: 'a,b,c' } })).toEqual([400, 'INVALID_FIELD', 'lines']);
    expect(await bad({ method: 'POST', url: '/api/v1/lots/picks', payload: { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l2 }] } })).toEqual([
      400,
      'INVALID_PICK',
      l.ids.l2,
    ]);
    expect(await bad({ method: 'POST', url: '/api/v1/lots/picks', payload: { picks: [{ lot: l.ids.l2 }] } })).toEqual([
      400,
      'MISSING_REQUIRED_FIELD',
      'disposal_id',
    ]);
    expect(await bad({ method: 'DELETE', url: '/api/v1/lots/picks/tx_nope' })).toEqual([404, 'TRANSACTION_NOT_FOUND', 'disposal_id']);
    expect(await bad({ method: 'GET', url: '/api/v1/lots/picks?workspace_id=ws_other' })).toEqual([403, 'FORBIDDEN', 'workspace_id']);
    const denied = await call(read, { method: 'POST', url: '/api/v1/lots/allocation', payload: {} });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    const deniedPick = await call(read, { method: 'DELETE', url: `/api/v1/lots/picks/${l.ids.s25}` });
    expect([deniedPick.status, deniedPick.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    expect((await call(read, { method: 'GET', url: `/api/v1/lots/allocation?workspace_id=${l.ws}` })).status).toBe(404);
    expect((await call(read, { method: 'GET', url: `/api/v1/lots/picks?workspace_id=${l.ws}` })).body.data).toEqual([]);
    expect((await call(read, { method: 'GET', url: `/api/v1/events?workspace_id=${l.ws}&type=lots.allocated` })).body.data).toEqual([]);
  });
});
