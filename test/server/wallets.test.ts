/** Wallet routes in-process (fastify inject) on a real ledger: add, rename, remove, sync requests; access, scoping, errors, idempotency. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { OTHER_WS, WS, seedLedger, type Seeded } from './seed.js';

let s: Seeded;
let app: FastifyInstance;
let full: string;
/** The last event of the seed: tests look at the events after it. */
let seedSeq: number;

beforeEach(() => {
  s = seedLedger({ rows: 4 });
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  full = s.key('full');
  seedSeq = s.engine.db.prepare('SELECT max(seq) FROM events').pluck().get() as number;
});
afterEach(async () => {
  await app.close();
  s.engine.close();
});

async function call(key: string, opts: InjectOptions) {
  const res = await app.inject({ ...opts, headers: { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) } });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
}

const ADDRESS = `0x${'Ab'.repeat(20)}`;
const add = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(key, { method: 'POST', url: '/api/v1/wallets', payload: { workspace_id: WS, ...body }, headers });
const eventTypes = () =>
  s.engine.db.prepare("SELECT type FROM events WHERE workspace_id = ? AND seq > ? AND type LIKE 'wallet.%' ORDER BY seq").pluck().all(WS, seedSeq);

describe('POST /wallets', () => {
  it('adds a wallet (201, lower-cased address, no balance yet) with a wallet.created event', async () => {
    const r = await add(full, { address: ADDRESS, chain: 'base', label: 'Cold' });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ address: ADDRESS.toLowerCase(), chain: 'base', label: 'Cold', transaction_count: 0, last_synced: null });
    expect(r.body.data.id).toMatch(/^wal_[0-9a-f]{20}$/);
    expect(eventTypes()).toEqual(['wallet.created']);
  });

  it('refuses bad input with the API codes and fields, adding nothing', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ address: '0x12', chain: 'base' }, 400, 'INVALID_FIELD', 'address'],
      [{ address: ADDRESS, chain: 'solana' }, 400, 'INVALID_FIELD', 'chain'],
      [{ chain: 'base' }, 400, 'MISSING_REQUIRED_FIELD', 'address'],
      [{ address: ADDRESS }, 400, 'MISSING_REQUIRED_FIELD', 'chain'],
      [{ address: 5, chain: 'base' }, 400, 'INVALID_FIELD', 'address'],
      [{ address: ADDRESS, chain: 'base', label: 'x'.repeat(101) }, 400, 'INVALID_FIELD', 'label'],
    ];
    for (const [body, status, code, field] of cases) {
      const r = await add(full, body);
      expect([r.status, r.body.error.code, r.body.error.field], JSON.stringify(body)).toEqual([status, code, field]);
    }
    const chain = await add(full, { address: ADDRESS, chain: 'solana' });
    expect(chain.body.error.message).toContain('ethereum, polygon, arbitrum, bsc, base');
    expect(s.engine.db.prepare('SELECT count(*) FROM wallets WHERE workspace_id = ?').pluck().get(WS)).toBe(2);
  });

  it('a wallet already in the workspace is 409 WALLET_ALREADY_EXISTS; another workspace is 403', async () => {
    expect((await add(full, { address: ADDRESS, chain: 'base' })).status).toBe(201);
    const again = await add(full, { address: ADDRESS.toLowerCase(), chain: 'base' });
    expect([again.status, again.body.error.code]).toEqual([409, 'WALLET_ALREADY_EXISTS']);
    const other = await add(full, { workspace_id: OTHER_WS, address: ADDRESS, chain: 'base' });
    expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await call(full, { method: 'POST', url: '/api/v1/wallets', payload: { address: ADDRESS, chain: 'gnosis' } });
    expect([missing.status, missing.body.error.field]).toEqual([400, 'workspace_id']);
  });

  it('replays a POST with the same Idempotency-Key instead of adding the wallet twice', async () => {
    const first = await add(full, { address: ADDRESS, chain: 'base' }, { 'idempotency-key': 'k1' });
    const second = await add(full, { address: ADDRESS, chain: 'base' }, { 'idempotency-key': 'k1' });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(eventTypes()).toEqual(['wallet.created']);
  });
});

describe('PATCH and DELETE /wallets/:id', () => {
  it('renames and removes (with the wallet and its transactions), with events', async () => {
    const renamed = await call(full, { method: 'PATCH', url: '/api/v1/wallets/wal_ethereum', payload: { label: ' Hot ' } });
    expect([renamed.status, renamed.body.data.label]).toEqual([200, 'Hot']);
    const removed = await call(full, { method: 'DELETE', url: '/api/v1/wallets/wal_ethereum' });
    expect(removed.body).toEqual({ success: true, data: { id: 'wal_ethereum', deleted: true } });
    expect(s.engine.db.prepare("SELECT count(*) FROM transactions WHERE wallet_id = 'wal_ethereum'").pluck().get()).toBe(0);
    expect(eventTypes()).toEqual(['wallet.updated', 'wallet.deleted']);
  });

  it("another workspace's wallet and an unknown id are 404 WALLET_NOT_FOUND; a bad label 400", async () => {
    for (const opts of [
      { method: 'PATCH', url: '/api/v1/wallets/wal_other', payload: { label: 'x' } },
      { method: 'DELETE', url: '/api/v1/wallets/wal_other' },
      { method: 'DELETE', url: '/api/v1/wallets/wal_nope' },
      { method: 'POST', url: '/api/v1/wallets/wal_other/sync' },
      { method: 'GET', url: '/api/v1/wallets/wal_other/sync' },
    ] as InjectOptions[]) {
      const r = await call(full, opts);
      expect([r.status, r.body.error.code], `${opts.method} ${opts.url}`).toEqual([404, 'WALLET_NOT_FOUND']);
    }
    const bad = await call(full, { method: 'PATCH', url: '/api/v1/wallets/wal_ethereum', payload: { label: '' } });
    expect([bad.status, bad.body.error.code, bad.body.error.field]).toEqual([400, 'INVALID_FIELD', 'label']);
    const none = await call(full, { method: 'PATCH', url: '/api/v1/wallets/wal_ethereum', payload: {} });
    expect([none.status, none.body.error.code]).toEqual([400, 'MISSING_REQUIRED_FIELD']);
    expect(s.engine.db.prepare("SELECT count(*) FROM wallets WHERE id = 'wal_other'").pluck().get()).toBe(1);
  });
});

describe('GET /wallets', () => {
  it('leaves spam rows out of balances and transaction_count, as the transaction list does (docs/transfers.md "Spam")', async () => {
    const wallet = s.wallets[0]!;
    const rowsOf = async () => (await call(full, { method: 'GET', url: `/api/v1/transactions?workspace_id=${WS}&wallet_id=${wallet}` })).body;
    const [spam, kept] = (await rowsOf()).data as { id: string; amount: string; direction: string; token: { symbol: string; address: string | null } }[];
    expect((await call(full, { method: 'PATCH', url: `/api/v1/transactions/${spam!.id}`, payload: { spam: true } })).status).toBe(200);
    const listed = (await call(full, { method: 'GET', url: `/api/v1/wallets?workspace_id=${WS}` })).body.data.find((w: { id: string }) => w.id === wallet);
    expect(listed.transaction_count).toBe((await rowsOf()).pagination.total);
    expect(listed.balance.tokens.map((t: { symbol: string; address: string | null; balance: string }) => [t.symbol, t.address, t.balance])).toEqual([
      [kept!.token.symbol, kept!.token.address, `${kept!.direction === 'outflow' ? '-' : ''}${kept!.amount}`],
    ]);
  });
});

describe('access levels', () => {
  it('a read key may list wallets and read a sync, not change wallets or start a sync; a write key may', async () => {
    const read = s.key('read');
    const write = s.key('write');
    for (const opts of [
      { method: 'POST', url: '/api/v1/wallets', payload: { workspace_id: WS, address: ADDRESS, chain: 'base' } },
      { method: 'PATCH', url: '/api/v1/wallets/wal_ethereum', payload: { label: 'x' } },
      { method: 'DELETE', url: '/api/v1/wallets/wal_ethereum' },
      { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync' },
    ] as InjectOptions[]) {
      const r = await call(read, opts);
      expect([r.status, r.body.error.code], `${opts.method} ${opts.url}`).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    }
    expect((await call(read, { method: 'GET', url: `/api/v1/wallets?workspace_id=${WS}` })).status).toBe(200);
    expect((await add(write, { address: ADDRESS, chain: 'base' })).status).toBe(201);
    expect((await call(write, { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync' })).status).toBe(202);
  });
});

describe('sync requests', () => {
  it('queues one sync per wallet: asking again answers the queued one; GET shows the newest', async () => {
    const none = await call(full, { method: 'GET', url: '/api/v1/wallets/wal_ethereum/sync' });
    expect([none.status, none.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const first = await call(full, { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync' });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ wallet_id: 'wal_ethereum', status: 'queued', chain: 'ethereum', new_transactions: 0, error: null });
    const second = await call(full, { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync' });
    expect([second.status, second.body.data.id]).toEqual([202, first.body.data.id]);
    const status = await call(full, { method: 'GET', url: '/api/v1/wallets/wal_ethereum/sync' });
    expect(status.body.data).toEqual(first.body.data);
    expect(s.engine.db.prepare('SELECT count(*) FROM wallet_syncs').pluck().get()).toBe(1);
  });

  it('a body that is no JSON object is 400 INVALID_JSON, as on every route, and queues nothing', async () => {
    for (const payload of ['[]', '"x"', 'null', '5']) {
      const r = await call(full, { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync', payload, headers: { 'content-type': 'application/json' } });
      expect([r.status, r.body.error.code], payload).toEqual([400, 'INVALID_JSON']);
    }
    expect(s.engine.db.prepare('SELECT count(*) FROM wallet_syncs').pluck().get()).toBe(0);
    // A body is optional: none, or an object naming the key's workspace.
    expect((await call(full, { method: 'POST', url: '/api/v1/wallets/wal_ethereum/sync', payload: { workspace_id: WS } })).status).toBe(202);
  });
});
