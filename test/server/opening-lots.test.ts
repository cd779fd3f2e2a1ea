/**
 * Opening lots over HTTP (fastify inject) on the ledger of test/lots/seed.ts: GET|POST
 * /lots/openings and DELETE /lots/openings/:import_id (docs/lots.md "Opening lots"), CSV text
 * and JSON lines, statuses, codes, access levels, the acting key, and the answers against the
 * OpenAPI document. Alpha's first row is 2023-01-10 (L1, 1 ETH for 1,000.00).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const CSV = 'wallet,asset,quantity,date_acquired,cost_basis,note\nAlpha,ETH,0.25,2022-11-01,300.00,carried\n';

describe('opening lots over HTTP', () => {
  it('imports CSV text, lists, and removes, as the OpenAPI document describes them', async () => {
    const conforms = await server.conformance();
    const keyId = server.writeKey().member_id; // the key's member acts (docs/server.md "Teams")
    const dry = await call(write, { method: 'POST', url: '/api/v1/lots/openings', payload: { workspace_id: l.ws, csv: CSV, dry_run: true } });
    expect(dry.status).toBe(200);
    expect(dry.body.data.dry_run).toBe(true);
    const created = await call(write, { method: 'POST', url: '/api/v1/lots/openings', payload: { workspace_id: l.ws, csv: CSV, file_name: 'prev.csv' } });
    expect(created.status).toBe(201);
    conforms('/lots/openings', 'post', '201', created.body);
    const lot = created.body.data.added[0];
    expect(lot).toMatchObject({ wallet_label: 'Alpha', quantity: '0.25', date_acquired: '2022-11-01', cost_basis: 300, created_by: keyId, line: 2 });
    const listed = await call(read, { method: 'GET', url: `/api/v1/lots/openings?workspace_id=${l.ws}` });
    expect(listed.status).toBe(200);
    conforms('/lots/openings', 'get', '200', listed.body);
    // The pool at the end of 2022 holds the opening lot alone; later, it is the oldest lot (FIFO takes it first).
    const pooled = await call(read, { method: 'GET', url: `/api/v1/lots?workspace_id=${l.ws}&at=2022-12-31` });
    expect(pooled.body.data.lots.map((x: { lot: string; cost_basis: number }) => [x.lot, x.cost_basis])).toEqual([[lot.id, 300]]);
    const events = await call(read, { method: 'GET', url: `/api/v1/events?workspace_id=${l.ws}&type=lots.imported` });
    expect(events.body.data[0].payload).toMatchObject({ actor: keyId, source: { format: 'opening-lots', file_name: 'prev.csv' } });
    const removed = await call(write, { method: 'DELETE', url: `/api/v1/lots/openings/${created.body.data.import_id}?workspace_id=${l.ws}` });
    expect(removed.status).toBe(200);
    conforms('/lots/openings/{import_id}', 'delete', '200', removed.body);
    expect(removed.body.data.removed).toBe(1);
  });

  it('takes JSON lines, and refuses what is wrong with the line named', async () => {
    const ok = await call(write, {
      method: 'POST',
      url: '/api/v1/lots/openings',
      payload: { workspace_id: l.ws, lines: [{ wallet: 'Beta', asset: 'eth', quantity: '1', date_acquired: '2023-01-01', cost_basis: 1200 }] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.added[0]).toMatchObject({ wallet_label: 'Beta', asset: 'ETH', cost_basis: 1200, line: 2 });
    const bad = async (payload: unknown, key = write) => {
      const res = await call(key, { method: 'POST', url: '/api/v1/lots/openings', payload });
      return [res.status, res.body.error.code, res.body.error.field];
    };
    expect(await bad({ workspace_id: l.ws, csv: CSV.replace('2022-11-01', '2023-02-01') })).toEqual([400, 'INVALID_FIELD', 'line 2']);
    expect(await bad({ workspace_id: l.ws, lines: [{ wallet: 'Nobody', asset: 'ETH', quantity: '1', date_acquired: '2022-01-01', cost_basis: 1 }] })).toEqual([
      400,
      'INVALID_FIELD',
      'line 2',
    ]);
    expect(await bad({ workspace_id: l.ws })).toEqual([400, 'MISSING_REQUIRED_FIELD', 'csv']);
    expect(await bad({ workspace_id: l.ws, csv: CSV }, read)).toEqual([403, 'INSUFFICIENT_PERMISSIONS', undefined]);
    const missing = await call(write, { method: 'DELETE', url: `/api/v1/lots/openings/opn_nope?workspace_id=${l.ws}` });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
