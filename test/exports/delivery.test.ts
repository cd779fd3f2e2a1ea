/**
 * Asynchronous exports end to end with real parts: e-mail to an in-process smtp-server, webhooks
 * to a node:http receiver verified with the `standardwebhooks` library (the export's own call and
 * the subscriptions' deliveries of the same event, sent by serve's delivery loop run in-process),
 * status transitions, recovery of an interrupted job, signed links and the 24-hour expiry on the
 * engine clock.
 */
import { describe, test, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { tempLedger, addWallets, addMany } from './seed.js';

/** These ledgers run as a `txa serve` at this URL would: the links are signed ones. */
const SERVED = 'https://txa.example.com';
import { startSmtp, type Mail } from '../helpers/smtp.js';
import { createExport, downloadExport, getExport, listExports, verifyDownloadToken } from '../../src/engine/exports.js';
import { claimNextJob, claimJob, recoverInterruptedJobs, runExportJob } from '../../src/engine/export-jobs.js';
import { createWebhook, receives } from '../../src/engine/webhooks.js';
import { DeliveryLoop } from '../../src/server/delivery.js';
import type { Engine } from '../../src/engine/engine.js';
import type { TxaError } from '../../src/core/errors.js';
import type { ExportRecord } from '../../src/core/types.js';

let mails: Mail[] = [];
let stopSmtp: () => Promise<void>;

beforeAll(async () => {
  ({ mails, stop: stopSmtp } = await startSmtp());
});

afterAll(() => stopSmtp());

afterEach(() => {
  delete process.env.TXA_NOW;
});

/** The decoded bytes of the attachment named `name` in a raw MIME message. */
function attachment(raw: string, name: string): Buffer {
  const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)![1]!;
  const part = raw.split(`--${boundary}`).find((p) => p.includes(`filename=${name}`) || p.includes(`filename="${name}"`))!;
  expect(part).toMatch(/Content-Transfer-Encoding: base64/i);
  const body = part.slice(part.indexOf('\r\n\r\n') + 4);
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

function header(raw: string, name: string): string {
  return new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1] ?? '';
}

interface Received {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

async function receiver(statuses: number[]): Promise<{ url: string; calls: Received[]; server: Server }> {
  const calls: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ path: req.url!, body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.statusCode = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/export`, calls, server };
}

describe('e-mail delivery', () => {
  test('queued → processing → completed; the mail reaches every recipient with the file attached byte for byte', async () => {
    const { engine, ws, dir } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 2500);
    const queued = await createExport(engine, ws, { format: 'csv', delivery: { method: 'email', email_recipients: ['a@example.com', 'b@example.org'] } });
    expect(queued).toMatchObject({ status: 'queued', progress: 0, status_url: `${engine.publicBaseUrl}/api/v1/exports/${queued.id}` });
    expect(Date.parse(queued.estimated_completion!)).toBeGreaterThanOrEqual(Date.parse(queued.created_at));
    expect(queued.download_url).toBeUndefined();

    expect(claimNextJob(engine)).toBe(queued.id);
    expect(claimNextJob(engine)).toBeNull();
    const seen: ExportRecord[] = [getExport(engine, ws, queued.id)];
    await runExportJob(engine, queued.id, (p) => {
      if (p.progress < 100) seen.push(getExport(engine, ws, queued.id));
    });
    const done = getExport(engine, ws, queued.id);
    expect(seen[0]).toMatchObject({ status: 'processing', progress: 0 });
    expect(seen.length).toBeGreaterThan(1);
    for (const s of seen) {
      expect(s.status).toBe('processing');
      expect(s.progress).toBeGreaterThanOrEqual(0);
      expect(s.progress).toBeLessThanOrEqual(100);
      expect(s.estimated_completion).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(seen.at(-1)!.progress).toBeGreaterThan(0);
    expect(done).toMatchObject({ status: 'completed', transaction_count: 2500 });
    expect(done.progress).toBeUndefined();

    const mail = mails.find((m) => m.raw.includes(queued.id))!;
    expect(mail.to).toEqual(['a@example.com', 'b@example.org']);
    expect(mail.from).toBe('ledger@example.com');
    expect(header(mail.raw, 'Subject')).toContain(`txa export ${queued.id}: 2500 transactions (CSV)`);
    const file = downloadExport(engine, ws, queued.id, join(dir, 'mailed.csv'));
    expect(attachment(mail.raw, `${queued.id}.csv`).equals(readFileSync(file.path))).toBe(true);
  });

  test('an unreachable SMTP server fails the job with the error recorded', async () => {
    const { engine, ws } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 3);
    const saved = process.env.TXA_SMTP_URL;
    process.env.TXA_SMTP_URL = 'smtp://127.0.0.1:9';
    try {
      const queued = await createExport(engine, ws, { format: 'json', delivery: { method: 'email', email_recipients: ['a@example.com'] } });
      await runExportJob(engine, queued.id);
      const failed = getExport(engine, ws, queued.id);
      expect(failed.status).toBe('failed');
      expect(failed.error?.code).toBe('DELIVERY_FAILED');
      expect(failed.error?.message).toContain('a@example.com');
      expect(readdirSync(join(engine.filesDir, 'exports')).filter((f) => f.startsWith(queued.id))).toEqual([]);
    } finally {
      process.env.TXA_SMTP_URL = saved;
    }
  });
});

/** The export.completed events in the log. */
function completedEvents(engine: Engine): { id: string; payload: string }[] {
  return engine.db.prepare("SELECT id, payload FROM events WHERE type = 'export.completed' ORDER BY seq").all() as { id: string; payload: string }[];
}

const verifies = (secret: string, call: Received) => new Webhook(secret).verify(call.body, call.headers as Record<string, string>);

function signedBy(secret: string, call: Received): boolean {
  try {
    verifies(secret, call);
    return true;
  } catch {
    return false;
  }
}

describe('webhook delivery', () => {
  test("with a subscription at its URL: the call is the subscriptions' event (same id, same text), signed with that subscription's secret", async () => {
    const { engine, ws } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 40);
    const hook = await receiver([200]);
    try {
      const other = `${new URL(hook.url).origin}/hooks/other`;
      const tagsOnly = createWebhook(engine, ws, { url: hook.url, events: ['tag.created'] }); // same URL, not this event
      const elsewhere = createWebhook(engine, ws, { url: other, events: ['export.completed'] }); // this event, another URL
      const sub = createWebhook(engine, ws, { url: hook.url, events: ['export.completed'] }); // the oldest that matches
      const newer = createWebhook(engine, ws, { url: hook.url }); // matches too (every event), but is newer
      const queued = await createExport(engine, ws, { format: 'json', delivery: { method: 'webhook', webhook_url: hook.url } });
      await runExportJob(engine, queued.id, undefined, { retryDelaysMs: [] });
      const done = getExport(engine, ws, queued.id);
      expect(done.status).toBe('completed');

      const [event] = completedEvents(engine) as [{ id: string; payload: string }];
      expect(completedEvents(engine)).toHaveLength(1);
      expect(hook.calls).toHaveLength(1);
      const call = hook.calls[0]!;
      expect(call.body).toBe(event.payload);
      expect(call.headers['webhook-id']).toBe(event.id);
      expect(verifies(sub.secret, call)).toEqual({
        event: 'export.completed',
        event_id: event.id,
        created_at: expect.stringMatching(/Z$/),
        workspace_id: ws,
        export_id: queued.id,
        format: 'json',
        download_url: done.download_url,
        transaction_count: 40,
        file_size: done.file_size,
        expires_at: done.expires_at,
      });
      for (const s of [newer, tagsOnly, elsewhere]) expect(signedBy(s.secret, call)).toBe(false);

      // serve's delivery loop sends the same event to each subscription of it: same id, same text.
      const loop = new DeliveryLoop(engine, { allowPrivate: true });
      loop.start();
      try {
        const deadline = Date.now() + 10_000;
        while (hook.calls.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await loop.stop();
      }
      const deliveries = hook.calls.slice(1);
      expect(deliveries.map((d) => d.path).sort()).toEqual(['/hooks/export', '/hooks/export', '/hooks/other']);
      for (const d of deliveries) {
        expect(d.headers['webhook-id']).toBe(call.headers['webhook-id']);
        expect(d.body).toBe(call.body);
      }
      // The receiver at the export's URL holds sub's secret: the export's call and sub's delivery
      // both verify with it, and it drops the second by its webhook-id.
      expect(deliveries.filter((d) => signedBy(sub.secret, d)).map((d) => d.path)).toEqual(['/hooks/export']);
    } finally {
      hook.server.close();
    }
  });

  test('URLs match as parsed; the event types must include export.completed or *', () => {
    expect(receives({ url: 'https://Hooks.example', events: ['*'] }, 'https://hooks.example/', 'export.completed')).toBe(true);
    expect(receives({ url: 'https://hooks.example/a', events: ['export.completed'] }, 'https://hooks.example/a', 'export.completed')).toBe(true);
    expect(receives({ url: 'https://hooks.example/a', events: ['export.completed'] }, 'https://hooks.example/a/', 'export.completed')).toBe(false);
    expect(receives({ url: 'https://hooks.example/a', events: ['tag.created', 'wallet.synced'] }, 'https://hooks.example/a', 'export.completed')).toBe(false);
  });

  test("without one: the same event, signed with the workspace's own secret (shown nowhere), after a retry", async () => {
    const { engine, ws } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 40);
    const hook = await receiver([503, 200]);
    try {
      createWebhook(engine, ws, { url: `${hook.url}/elsewhere` });
      const queued = await createExport(engine, ws, { format: 'json', delivery: { method: 'webhook', webhook_url: hook.url } });
      expect(queued.status).toBe('queued');
      await runExportJob(engine, queued.id, undefined, { retryDelaysMs: [50, 50] });
      const done = getExport(engine, ws, queued.id);
      expect(done.status).toBe('completed');
      expect(hook.calls.length).toBe(2);
      const [event] = completedEvents(engine) as [{ id: string; payload: string }];
      expect(completedEvents(engine)).toHaveLength(1);
      const secret = engine.db.prepare('SELECT webhook_secret FROM workspace_secrets WHERE workspace_id = ?').pluck().get(ws) as string;
      expect(secret).toMatch(/^whsec_/);
      for (const call of hook.calls) {
        expect(call.body).toBe(event.payload);
        expect(call.headers['webhook-id']).toBe(event.id);
        expect(verifies(secret, call)).toMatchObject({
          event: 'export.completed',
          event_id: event.id,
          workspace_id: ws,
          export_id: queued.id,
          transaction_count: 40,
        });
      }
      const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      expect(() => verifies(otherSecret, hook.calls[1]!)).toThrow(/signature/i);

      // The link in the body is the credential: it resolves to the stored file.
      const url = new URL(done.download_url!);
      const file = verifyDownloadToken(engine, queued.id, url.searchParams.get('expires')!, url.searchParams.get('token')!);
      expect(JSON.parse(readFileSync(file.path, 'utf8')).transactions.length).toBe(40);
      expect(file.contentType).toBe('application/json');
    } finally {
      hook.server.close();
    }
  });

  test('a receiver that keeps failing: tried 1 + retries times, then failed with the error; the event and its file stay until expiry', async () => {
    const { engine, ws, dir } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 5);
    const hook = await receiver([500]);
    try {
      const queued = await createExport(engine, ws, { format: 'csv', delivery: { method: 'webhook', webhook_url: hook.url } });
      await runExportJob(engine, queued.id, undefined, { retryDelaysMs: [10, 20, 40] });
      const failed = getExport(engine, ws, queued.id);
      expect(hook.calls.length).toBe(4);
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'DELIVERY_FAILED' } });
      expect(failed.error!.message).toContain('HTTP 500');
      expect(failed.download_url).toBeUndefined();
      const events = completedEvents(engine);
      expect(events.map((e) => JSON.parse(e.payload).export_id)).toEqual([queued.id]);
      expect(new Set(hook.calls.map((c) => c.headers['webhook-id']))).toEqual(new Set([events[0]!.id]));
      // The event already went to subscribers: its link keeps working until the file expires.
      const link = new URL(JSON.parse(events[0]!.payload).download_url);
      const file = verifyDownloadToken(engine, queued.id, link.searchParams.get('expires')!, link.searchParams.get('token')!);
      expect(readFileSync(file.path, 'utf8')).toContain('Total inflow');
      expect(downloadExport(engine, ws, queued.id, join(dir, 'after-failure.csv')).bytes).toBe(file.size);
      process.env.TXA_NOW = new Date(Date.parse(failed.expires_at) + 60_000).toISOString();
      expect(getExport(engine, ws, queued.id)).toMatchObject({ status: 'failed', error: { code: 'DELIVERY_FAILED' } });
      expect(existsSync(file.path)).toBe(false);
    } finally {
      hook.server.close();
    }
  });
});

describe('jobs and links', () => {
  test("a serve job left by a dead process goes back to queued and is resumed; a live owner keeps its job, another host's is judged by its heartbeat", async () => {
    const { engine, ws } = tempLedger('free', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 10);
    const hook = await receiver([200]);
    const setOwner = engine.db.prepare('UPDATE exports SET worker = ?, heartbeat_ts = ?, progress = 40 WHERE id = ?');
    const wallNow = Math.floor(Date.now() / 1000);
    try {
      const queued = await createExport(engine, ws, { format: 'csv', delivery: { method: 'webhook', webhook_url: hook.url } });
      expect(claimJob(engine, queued.id)).toBe(true);
      const mine = (engine.db.prepare('SELECT worker FROM exports WHERE id = ?').pluck().get(queued.id) as string).split(' ');
      expect(mine.slice(0, 3)).toEqual(['serve', hostname(), String(process.pid)]);
      // A live owner's job (this process) is left alone, however long its heartbeat has been silent.
      setOwner.run(mine.join(' '), wallNow - 3600, queued.id);
      expect(recoverInterruptedJobs(engine)).toEqual([]);
      // A dead process on this host: its job is queued again on the next read.
      const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
      setOwner.run(`serve ${hostname()} ${deadPid} -`, wallNow, queued.id);
      expect(getExport(engine, ws, queued.id)).toMatchObject({ status: 'queued', progress: 0 });
      expect(recoverInterruptedJobs(engine)).toEqual([]);
      // So is one written as `host:pid` before jobs had roles.
      expect(claimJob(engine, queued.id)).toBe(true);
      setOwner.run(`${hostname()}:${deadPid}`, wallNow, queued.id);
      expect(recoverInterruptedJobs(engine)).toEqual([queued.id]);
      // This pid, but started at another moment: a reused pid, not the owner.
      if (mine[3] !== '-') {
        expect(claimJob(engine, queued.id)).toBe(true);
        setOwner.run([...mine.slice(0, 3), `${mine[3]}0`].join(' '), wallNow, queued.id);
        expect(recoverInterruptedJobs(engine)).toEqual([queued.id]);
      }
      // Another host: gone only once its heartbeat is over 10 minutes old.
      expect(claimJob(engine, queued.id)).toBe(true);
      setOwner.run('serve another-host.example 1 -', wallNow - 590, queued.id);
      expect(recoverInterruptedJobs(engine)).toEqual([]);
      setOwner.run('serve another-host.example 1 -', wallNow - 601, queued.id);
      expect(recoverInterruptedJobs(engine)).toEqual([queued.id]);
      expect(claimNextJob(engine)).toBe(queued.id);
      await runExportJob(engine, queued.id);
      expect(getExport(engine, ws, queued.id).status).toBe('completed');
      expect(hook.calls.length).toBe(1);
    } finally {
      hook.server.close();
    }
  });

  test('a CLI job killed after renaming its file into place but before recording it: failed INTERRUPTED, and that file removed too', async () => {
    const { engine, ws } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 10);
    const job = await createExport(engine, ws, { format: 'csv', delivery: { method: 'webhook', webhook_url: 'http://127.0.0.1:9/hook' } });
    expect(claimJob(engine, job.id)).toBe(true);
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    engine.db
      .prepare('UPDATE exports SET worker = ?, heartbeat_ts = ? WHERE id = ?')
      .run(`cli ${hostname()} ${deadPid} -`, Math.floor(Date.now() / 1000), job.id);
    const files = [`${job.id}.csv`, `${job.id}.csv.tmp`].map((name) => join(engine.dir('exports'), name));
    for (const f of files) writeFileSync(f, 'date,amount\n');
    expect(recoverInterruptedJobs(engine)).toEqual([job.id]);
    expect(getExport(engine, ws, job.id)).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    expect(files.filter((f) => existsSync(f))).toEqual([]);
  });

  test('links: a wrong token is INVALID_DOWNLOAD_TOKEN; 25 h later the export is expired, its file deleted', async () => {
    const { engine, ws, dir } = tempLedger('pro', 'USD', SERVED);
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 10);
    process.env.TXA_NOW = '2030-05-01T08:00:00Z';
    const rec = await createExport(engine, ws, { format: 'csv' });
    expect(rec.expires_at).toBe('2030-05-02T08:00:00Z');
    const url = new URL(rec.download_url!);
    expect(url.pathname).toBe(`/api/v1/exports/${rec.id}/download`);
    const expires = url.searchParams.get('expires')!;
    const token = url.searchParams.get('token')!;
    expect(Number(expires)).toBe(Date.parse('2030-05-02T08:00:00Z') / 1000);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const file = verifyDownloadToken(engine, rec.id, expires, token);
    expect(existsSync(file.path)).toBe(true);
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as TxaError).code;
      }
      return 'no error';
    };
    expect(
      code(() =>
        verifyDownloadToken(
          engine,
          rec.id,
          expires,
          token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
        ),
      ),
    ).toBe('INVALID_DOWNLOAD_TOKEN');
    expect(code(() => verifyDownloadToken(engine, rec.id, String(Number(expires) + 3600), token))).toBe('INVALID_DOWNLOAD_TOKEN');

    process.env.TXA_NOW = '2030-05-02T07:59:00Z';
    expect(getExport(engine, ws, rec.id).status).toBe('completed');
    process.env.TXA_NOW = '2030-05-02T09:00:00Z';
    const expired = getExport(engine, ws, rec.id);
    expect(expired.status).toBe('expired');
    expect(expired.download_url).toBeUndefined();
    expect(existsSync(file.path)).toBe(false);
    expect(code(() => downloadExport(engine, ws, rec.id, join(dir, 'late.csv')))).toBe('EXPORT_EXPIRED');
    expect(existsSync(join(dir, 'late.csv'))).toBe(false);
    expect(code(() => verifyDownloadToken(engine, rec.id, expires, token))).toBe('EXPORT_EXPIRED');
    expect(listExports(engine, ws, {}).data[0]!.status).toBe('expired');
  });
});
