/**
 * `txa schedules`, in process on a real ledger (docs/server.md "Scheduled reports"): the list's
 * shape, bad input refused with nothing stored, the tier limit, `run-due` after a clock jump of
 * three months (one run, of the last complete month, with that month's rows only), e-mail delivery
 * through a real SMTP server, `run ID` as the period's run and then as a repeat, and the events.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as create from '../../../src/cli/commands/schedules/create.js';
import * as list from '../../../src/cli/commands/schedules/list.js';
import * as del from '../../../src/cli/commands/schedules/delete.js';
import * as runCmd from '../../../src/cli/commands/schedules/run.js';
import * as runDue from '../../../src/cli/commands/schedules/run-due.js';
import { Engine } from '../../../src/engine/engine.js';
import { createWorkspace } from '../../../src/engine/workspaces.js';
import { addWallet } from '../../../src/engine/wallets.js';
import { importFile } from '../../../src/engine/imports.js';
import { downloadExport } from '../../../src/engine/exports.js';
import { createSchedule } from '../../../src/engine/schedules.js';
import { listEvents } from '../../../src/engine/events.js';
import { runInProcess } from '../../helpers/in-process.js';
import { startSmtp, type Mail } from '../../helpers/smtp.js';

const WALLET = `0x${'1'.repeat(40)}`;
let dir: string;
let db: string;
let pro: string;
let free: string;
const calls: string[] = [];
let rx: Server;
let hook: string;

/** One inflow of `amount` ETH at `timestamp`. */
function row(i: number, timestamp: string, amount: string) {
  return {
    tx_hash: `0x${String(i).padStart(64, 'a')}`,
    timestamp,
    amount,
    token: { symbol: 'ETH', address: null, decimals: 18 },
    direction: 'inflow',
    from_address: `0x${'2'.repeat(40)}`,
    to_address: WALLET,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'txa-schedules-'));
  db = join(dir, 'ledger.db');
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
  const engine = Engine.open(db);
  pro = createWorkspace(engine, { name: 'Pro', tier: 'pro' }).id;
  free = createWorkspace(engine, { name: 'Free' }).id;
  const wallet = addWallet(engine, pro, { address: WALLET, chain: 'ethereum' }).id;
  // February's last second, two in March (its first and last second), April's first second.
  const rows = [
    row(1, '2026-02-28T23:59:59Z', '1'),
    row(2, '2026-03-01T00:00:00Z', '2'),
    row(3, '2026-03-31T23:59:59Z', '3'),
    row(4, '2026-04-01T00:00:00Z', '4'),
  ];
  writeFileSync(join(dir, 'rows.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n'));
  importFile(engine, pro, join(dir, 'rows.ndjson'), { walletId: wallet });
  engine.close();
  rx = createServer((req, res) => {
    let body = '';
    req
      .on('data', (d) => (body += d))
      .on('end', () => {
        calls.push(body);
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/reports`;
});

afterAll(() => new Promise<void>((r) => rx.close(() => r())));
afterEach(() => {
  delete process.env.TXA_NOW;
});

const g = (workspace = pro) => ({ db, workspace, json: true });
const base = { name: 'Monthly', every: 'monthly', format: 'csv' };

async function schedules(workspace = pro): Promise<any[]> {
  return JSON.parse((await runInProcess('txa schedules list', list.run, {}, g(workspace))).stdout).data;
}

describe('txa schedules create and list', () => {
  it('prints the schedule with its next run and no last run; list --json gives the same shape', async () => {
    process.env.TXA_NOW = '2026-01-15T10:00:00Z';
    const r = await runInProcess('txa schedules create', create.run, { ...base, webhookUrl: hook, tagIds: undefined }, g());
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout).data;
    expect(s).toMatchObject({
      id: expect.stringMatching(/^sch_/),
      name: 'Monthly',
      every: 'monthly',
      time_zone: 'UTC',
      format: 'csv',
      report_type: null,
      filters: {},
      delivery: { method: 'webhook', webhook_url: hook },
      next_run_at: '2026-02-01T00:00:00Z',
      last_run: null,
    });
    const all = await schedules();
    expect(all).toHaveLength(1);
    expect(Object.keys(all[0]).sort()).toEqual(Object.keys(s).sort());
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    [
      'an unknown frequency',
      { ...base, every: 'hourly', email: 'a@example.com' },
      /^error: INVALID_FIELD \(every\): every must be one of daily, weekly, monthly, quarterly/,
    ],
    ['a time zone that does not exist', { ...base, timeZone: 'Mars/Olympus_Mons', email: 'a@example.com' }, /^error: INVALID_FIELD \(time_zone\)/],
    ['a past-only time zone name', { ...base, timeZone: 'US/Pacific-New', email: 'a@example.com' }, /INVALID_FIELD \(time_zone\).*America\/Los_Angeles/],
    ['a report type CSV does not take', { ...base, reportType: 'summary', email: 'a@example.com' }, /^error: INVALID_FIELD \(report_type\)/],
    ['an e-mail that is not one', { ...base, email: 'books.example.com' }, /^error: INVALID_FIELD \(delivery.email_recipients\)/],
    ['a webhook URL that is not http(s)', { ...base, webhookUrl: 'ftp://example.com/x' }, /^error: INVALID_FIELD \(delivery.webhook_url\)/],
    ['no delivery', { ...base }, /^error: USAGE_ERROR \(email\)/],
    ['two deliveries', { ...base, email: 'a@example.com', webhookUrl: 'https://hooks.example.com/x' }, /^error: USAGE_ERROR \(webhook-url\)/],
  ];
  for (const [what, opts, message] of bad) {
    it(`refuses ${what}, naming the field, and stores nothing`, async () => {
      const before = (await schedules()).length;
      const r = await runInProcess('txa schedules create', create.run, opts as any, { db, workspace: pro });
      expect(r.stderr).toMatch(message);
      expect(r.exitCode).toBeGreaterThan(0);
      expect(await schedules()).toHaveLength(before);
    });
  }

  it('refuses dates of its own through the API body (the period sets them)', () => {
    const engine = Engine.open(db);
    try {
      expect(() =>
        createSchedule(engine, pro, {
          name: 'x',
          every: 'daily',
          format: 'csv',
          filters: { start_date: '2026-01-01' },
          delivery: { method: 'email', email_recipients: ['a@example.com'] },
        }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 'filters.start_date' }));
      expect(() => createSchedule(engine, pro, { name: 'x', every: 'daily', format: 'csv', delivery: { method: 'download' } })).toThrow(
        expect.objectContaining({ code: 'INVALID_FIELD', field: 'delivery.method' }),
      );
    } finally {
      engine.close();
    }
  });

  it('a free workspace: TIER_LIMIT, exit 5, nothing stored', async () => {
    const r = await runInProcess('txa schedules create', create.run, { ...base, email: 'a@example.com' } as any, { db, workspace: free });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/^error: TIER_LIMIT: scheduled reports are a feature of the pro and enterprise tiers/);
    expect(await schedules(free)).toEqual([]);
  });
});

describe('txa schedules run-due', () => {
  it('after a clock jump of three months: one run, of the last complete month, with its rows only; then nothing', async () => {
    process.env.TXA_NOW = '2026-04-20T08:00:00Z';
    const r = await runInProcess('txa schedules run-due', runDue.run, {}, g());
    expect(r.exitCode, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout).data;
    expect(data.runs).toHaveLength(1);
    expect(data.runs[0]).toMatchObject({
      kind: 'scheduled',
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      export: { status: 'completed', transaction_count: 2 },
    });
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]!)).toMatchObject({ event: 'export.completed', export_id: data.runs[0].export_id, transaction_count: 2 });
    // The file holds March's two rows: amounts 2 and 3 (February's last and April's first second are out).
    const engine = Engine.open(db);
    try {
      const out = join(dir, 'march.csv');
      downloadExport(engine, pro, data.runs[0].export_id, out);
      const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
      expect(rows.filter((x) => x.tx_hash).map((x) => x.amount)).toEqual(['2', '3']);
      const events = listEvents(engine, pro, { type: 'schedule.run' }).data;
      expect(events).toHaveLength(1);
      expect(events[0]!.payload).toMatchObject({
        event: 'schedule.run',
        export_id: data.runs[0].export_id,
        period_start: '2026-03-01',
        period_end: '2026-03-31',
      });
    } finally {
      engine.close();
    }
    const again = await runInProcess('txa schedules run-due', runDue.run, {}, g());
    expect(JSON.parse(again.stdout).data.runs).toEqual([]);
    expect(calls).toHaveLength(1);
    const [s] = await schedules();
    expect(s.last_run).toEqual({ period_start: '2026-03-01', period_end: '2026-03-31', export_id: data.runs[0].export_id, ran_at: '2026-04-20T08:00:00Z' });
    expect(s.next_run_at).toBe('2026-05-01T00:00:00Z');
  });

  it('is local only: on a remote backend, LOCAL_ONLY before any request', async () => {
    const r = await runInProcess('txa schedules run-due', runDue.run, {}, { baseUrl: 'http://127.0.0.1:9' } as any);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: LOCAL_ONLY/);
  });
});

describe('e-mail delivery and run ID', () => {
  let mails: Mail[];
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ mails, stop } = await startSmtp());
  });
  afterAll(() => stop());

  it('a daily schedule: run-due e-mails yesterday once; run ID then repeats it as a manual run', async () => {
    process.env.TXA_NOW = '2026-03-31T12:00:00Z';
    const c = await runInProcess('txa schedules create', create.run, { ...base, name: 'Daily', every: 'daily', email: 'books@example.com' } as any, g());
    expect(c.exitCode, c.stderr).toBe(0);
    const id = JSON.parse(c.stdout).data.id as string;
    // The day after: 2026-03-31 is complete, made once.
    process.env.TXA_NOW = '2026-04-01T06:00:00Z';
    const r = await runInProcess('txa schedules run-due', runDue.run, {}, g());
    expect(r.exitCode, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout).data.runs;
    expect(runs).toEqual([expect.objectContaining({ schedule_id: id, period_start: '2026-03-31', period_end: '2026-03-31', kind: 'scheduled' })]);
    expect(runs[0].export).toMatchObject({ status: 'completed', transaction_count: 1 });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['books@example.com']);
    expect(mails[0]!.raw).toContain(`${runs[0].export_id}.csv`);
    const manual = await runInProcess('txa schedules run', runCmd.run, { id }, g());
    expect(manual.exitCode, manual.stderr).toBe(0);
    expect(JSON.parse(manual.stdout).data).toMatchObject({ kind: 'manual', period_start: '2026-03-31', export: { status: 'completed' } });
    expect(mails).toHaveLength(2);
  });
});

describe('txa schedules delete', () => {
  it('needs --yes without a terminal; deletes; an unknown id is SCHEDULE_NOT_FOUND', async () => {
    const [s] = await schedules();
    expect((await runInProcess('txa schedules delete', del.run, { id: s.id }, { db, workspace: pro })).exitCode).toBe(2);
    const r = await runInProcess('txa schedules delete', del.run, { id: s.id, yes: true }, g());
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { id: s.id, deleted: true } });
    expect((await schedules()).map((x) => x.id)).not.toContain(s.id);
    const gone = await runInProcess('txa schedules delete', del.run, { id: s.id, yes: true }, { db, workspace: pro });
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(/^error: SCHEDULE_NOT_FOUND/);
  });
});

describe('txa schedules run, delivery failed', () => {
  it("exits 1 with the export's DELIVERY_FAILED, as export create does", async () => {
    const saved = process.env.TXA_SMTP_URL;
    process.env.TXA_SMTP_URL = 'smtp://127.0.0.1:9';
    try {
      const c = await runInProcess('txa schedules create', create.run, { ...base, name: 'Dead SMTP', email: 'books@example.com' } as any, g());
      const id = JSON.parse(c.stdout).data.id as string;
      const r = await runInProcess('txa schedules run', runCmd.run, { id }, { db, workspace: pro });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/^status\tfailed$/m);
      expect(r.stderr).toMatch(/^error: DELIVERY_FAILED: export exp_\w+ failed: DELIVERY_FAILED: e-mail to books@example.com failed/);
    } finally {
      if (saved === undefined) delete process.env.TXA_SMTP_URL;
      else process.env.TXA_SMTP_URL = saved;
    }
  });
});
