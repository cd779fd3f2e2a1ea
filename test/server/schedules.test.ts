/**
 * Scheduled reports on the API and in real `txa serve` processes (docs/server.md "Scheduled
 * reports"): the routes in process (shape, access, the tier limit, the outbound guard), two
 * servers on one ledger making each due period once, and a server killed in the middle of a
 * scheduled run whose restart delivers the report exactly once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import type { Engine } from '../../src/engine/engine.js';
import { createSchedule } from '../../src/engine/schedules.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import { dayText, dueAt, latestDue, nextPeriod } from '../../src/core/schedule-periods.js';
import { OTHER_WS, WS, seedLedger } from './seed.js';
import { api, startServe, until } from './serve-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  delete process.env.TXA_NOW;
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Last month by the real clock (serve refuses TXA_NOW): the period a monthly schedule made before it runs now. */
const lastMonth = latestDue('monthly', 'UTC', Date.now());
const DAY = 86_400;

/** `n` inflows of WS's first wallet spread over last month. */
function rowsInLastMonth(engine: Engine, n: number): void {
  const start = lastMonth.start * DAY;
  const span = (lastMonth.end + 1 - lastMonth.start) * DAY;
  const rows: NewTransaction[] = [];
  for (let i = 0; i < n; i++) {
    const hash = `0x${(900_000 + i).toString(16).padStart(64, 'f')}`;
    rows.push({
      id: transactionId('wal_ethereum', hash, '0'),
      workspace_id: WS,
      wallet_id: 'wal_ethereum',
      chain: 'ethereum',
      tx_hash: hash,
      transfer_key: '0',
      from_address: `0x${'3'.repeat(40)}`,
      to_address: `0x${'1'.padStart(40, 'b')}`,
      token_symbol: 'ETH',
      token_address: null,
      token_decimals: 18,
      amount: String(i + 1),
      amount_key: amountKey(String(i + 1)),
      fiat_cents: (i + 1) * 100,
      direction: 'inflow',
      type: 'transfer',
      ts: start + Math.floor((i * span) / n),
      notes: null,
    });
  }
  engine.write(() => insertTransactions(engine.db, rows, start));
}

/** Makes schedules as if on the 2nd of last month, so last month is theirs to run now. */
function scheduleBefore(engine: Engine, bodies: Record<string, unknown>[]): string[] {
  process.env.TXA_NOW = `${dayText(lastMonth.start + 1)}T00:00:00Z`;
  try {
    return bodies.map((b) => createSchedule(engine, WS, b).id);
  } finally {
    delete process.env.TXA_NOW;
  }
}

async function receiver() {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (d) => (body += d))
      .on('end', () => {
        calls.push(body);
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { calls, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/reports` };
}

describe('the routes, in process', () => {
  let app: FastifyInstance;
  const call = async (key: string, opts: InjectOptions) => {
    const res = await app.inject({ ...opts, headers: { authorization: `Bearer ${key}` } });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  it('create, list, run, delete; read keys list only; free is 403 TIER_LIMIT; a private webhook URL is refused; nothing stored on a refusal', async () => {
    const s = seedLedger();
    app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
    cleanups.push(async () => {
      await app.close();
      s.engine.close();
    });
    const full = s.key('full');
    const read = s.key('read');
    const body = { workspace_id: WS, name: 'Monthly', every: 'monthly', format: 'csv', delivery: { method: 'email', email_recipients: ['books@example.com'] } };
    const refused = await call(full, {
      method: 'POST',
      url: '/api/v1/schedules',
      payload: { ...body, delivery: { method: 'webhook', webhook_url: 'http://127.0.0.1:9/x' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_FIELD', field: 'delivery.webhook_url' });
    const tz = await call(full, { method: 'POST', url: '/api/v1/schedules', payload: { ...body, time_zone: 'Europe/Atlantis' } });
    expect(tz.body.error).toMatchObject({ code: 'INVALID_FIELD', field: 'time_zone' });
    expect((await call(read, { method: 'POST', url: '/api/v1/schedules', payload: body })).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const other = await call(s.key('full', OTHER_WS), { method: 'GET', url: '/api/v1/schedules' });
    expect(other.body).toEqual({ success: true, data: [] });
    expect((await call(full, { method: 'GET', url: '/api/v1/schedules' })).body).toEqual({ success: true, data: [] });

    const made = await call(full, { method: 'POST', url: '/api/v1/schedules', payload: body });
    expect(made.status).toBe(201);
    const next = new Date(dueAt(nextPeriod('monthly', lastMonth), 'UTC')).toISOString().replace('.000', '');
    expect(made.body.data).toMatchObject({
      name: 'Monthly',
      every: 'monthly',
      format: 'csv',
      report_type: null,
      filters: {},
      next_run_at: next,
      last_run: null,
    });
    const listed = await call(read, { method: 'GET', url: `/api/v1/schedules?workspace_id=${WS}` });
    expect(listed.body.data).toEqual([made.body.data]);

    // Run now: last month, as the period's scheduled run; the export is queued for the worker.
    process.env.TXA_SMTP_URL = 'smtp://127.0.0.1:9';
    cleanups.push(() => void delete process.env.TXA_SMTP_URL);
    const run = await call(full, { method: 'POST', url: `/api/v1/schedules/${made.body.data.id}/run`, payload: { workspace_id: WS } });
    expect(run.status).toBe(202);
    expect(run.body.data).toMatchObject({
      kind: 'scheduled',
      period_start: dayText(lastMonth.start),
      period_end: dayText(lastMonth.end),
      export: { status: 'queued' },
    });
    expect((await call(read, { method: 'POST', url: `/api/v1/schedules/${made.body.data.id}/run`, payload: {} })).status).toBe(403);
    const after = (await call(read, { method: 'GET', url: '/api/v1/schedules' })).body.data[0];
    expect(after.last_run).toEqual({
      period_start: dayText(lastMonth.start),
      period_end: dayText(lastMonth.end),
      export_id: run.body.data.export_id,
      ran_at: run.body.data.ran_at,
    });

    const gone = await call(full, { method: 'DELETE', url: `/api/v1/schedules/${made.body.data.id}` });
    expect(gone.body).toEqual({ success: true, data: { id: made.body.data.id, deleted: true } });
    expect((await call(full, { method: 'DELETE', url: `/api/v1/schedules/${made.body.data.id}` })).body.error.code).toBe('SCHEDULE_NOT_FOUND');
  });

  it('a free workspace: 403 TIER_LIMIT', async () => {
    const s = seedLedger({ tier: 'free' });
    app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
    cleanups.push(async () => {
      await app.close();
      s.engine.close();
    });
    const r = await call(s.key('full'), {
      method: 'POST',
      url: '/api/v1/schedules',
      payload: { workspace_id: WS, name: 'x', every: 'daily', format: 'csv', delivery: { method: 'email', email_recipients: ['a@example.com'] } },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('TIER_LIMIT');
  });
});

describe('in txa serve', () => {
  it('two servers on one ledger make each due period once: one export and one call per schedule', async () => {
    const s = seedLedger();
    rowsInLastMonth(s.engine, 50);
    const rx = await receiver();
    const ids = scheduleBefore(
      s.engine,
      [1, 2, 3, 4].map((i) => ({ name: `Monthly ${i}`, every: 'monthly', format: 'csv', delivery: { method: 'webhook', webhook_url: rx.url } })),
    );
    const key = s.key();
    s.engine.close();
    const [a, b] = await Promise.all([startServe(s.path, ['--allow-private-webhooks']), startServe(s.path, ['--allow-private-webhooks'])]);
    cleanups.push(
      () => a.stop(),
      () => b.stop(),
    );
    await until(() => rx.calls.length >= 4, 30_000, 'four reports');
    // Time for a second server's duplicate, were there one.
    await new Promise((r) => setTimeout(r, 1500));
    const exportIds = rx.calls.map((c) => JSON.parse(c).export_id as string);
    expect(new Set(exportIds).size).toBe(4);
    expect(rx.calls).toHaveLength(4);
    const listed = (await api(a, key, 'GET', '/schedules')).body.data as any[];
    expect(listed.map((x) => x.id).sort()).toEqual([...ids].sort());
    for (const sch of listed) {
      expect(sch.last_run).toMatchObject({ period_start: dayText(lastMonth.start), period_end: dayText(lastMonth.end) });
      expect(exportIds).toContain(sch.last_run.export_id);
      const exp = (await api(b, key, 'GET', `/exports/${sch.last_run.export_id}`)).body.data;
      expect(exp).toMatchObject({ status: 'completed', transaction_count: 50 });
    }
    const events = (await api(a, key, 'GET', `/events?workspace_id=${WS}&type=schedule.run`)).body.data as any[];
    expect(events).toHaveLength(4);
    expect((await api(a, key, 'GET', `/exports?workspace_id=${WS}`)).body.pagination.total).toBe(4);
    // Run now, through the worker of one server: a manual repeat, delivered by that server's worker.
    const again = await api(a, key, 'POST', `/schedules/${ids[0]}/run`, { workspace_id: WS });
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ kind: 'manual', period_start: dayText(lastMonth.start), export: { status: 'queued' } });
    await until(() => rx.calls.length === 5, 30_000, 'the repeat');
    expect(JSON.parse(rx.calls[4]!).export_id).toBe(again.body.data.export_id);
  });

  it('killed in the middle of a scheduled run, the restarted server finishes it: delivered exactly once', async () => {
    const s = seedLedger();
    rowsInLastMonth(s.engine, 6000);
    const rx = await receiver();
    scheduleBefore(s.engine, [
      { name: 'Monthly PDF', every: 'monthly', format: 'pdf', report_type: 'detailed', delivery: { method: 'webhook', webhook_url: rx.url } },
    ]);
    const key = s.key();
    s.engine.close();
    let srv = await startServe(s.path, ['--allow-private-webhooks']);
    const exportId = await until(
      async () => {
        const sch = (await api(srv, key, 'GET', '/schedules')).body.data[0];
        if (!sch.last_run) return undefined;
        const exp = (await api(srv, key, 'GET', `/exports/${sch.last_run.export_id}`)).body.data;
        return exp.status === 'processing' && exp.progress > 0 && (sch.last_run.export_id as string);
      },
      30_000,
      'the run in progress',
    );
    await srv.stop('SIGKILL');
    expect(rx.calls).toHaveLength(0);
    srv = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => srv.stop());
    await until(() => rx.calls.length > 0, 60_000, 'the report');
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.calls).toHaveLength(1);
    expect(JSON.parse(rx.calls[0]!)).toMatchObject({ event: 'export.completed', export_id: exportId, format: 'pdf', transaction_count: 6000 });
    expect((await api(srv, key, 'GET', `/events?workspace_id=${WS}&type=schedule.run`)).body.data).toHaveLength(1);
    expect((await api(srv, key, 'GET', `/exports?workspace_id=${WS}`)).body.pagination.total).toBe(1);
  });
});
