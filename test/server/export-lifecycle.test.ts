/**
 * The export job lifecycle through a real `txa serve`: a webhook receiver that reads the export
 * on receipt sees it `completed`; POST /exports/:id/cancel (full access, 404, 409) stops a job
 * the worker is running, and `txa export cancel` does the same through the remote backend.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WS, seedLedger } from './seed.js';
import { startServe, until, api, type ServeProcess } from './serve-process.js';
import { sandbox } from '../helpers/cli.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A receiver that, on each call, reads `GET /exports/:export_id` from the server and answers 200 after. */
async function readingReceiver(srv: () => ServeProcess, key: string) {
  const seen: { body: any; status: number; record: any }[] = [];
  const rx = createServer((req, res) => {
    let text = '';
    req
      .on('data', (d) => (text += d))
      .on('end', async () => {
        const body = JSON.parse(text);
        const r = await api(srv(), key, 'GET', `/exports/${body.export_id}`);
        seen.push({ body, status: r.status, record: r.body.data });
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => rx.close(() => r())));
  return { url: `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`, seen };
}

describe('export state ordering', () => {
  it('a receiver that reads the export on receipt of export.completed sees it completed, with its link', async () => {
    const s = seedLedger({ rows: 30 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => srv.stop());
    const rx = await readingReceiver(() => srv, key);
    const created = await api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'csv', delivery: { method: 'webhook', webhook_url: rx.url } });
    expect(created.status).toBe(202);
    await until(() => rx.seen.length > 0, 30_000, 'the export.completed call');
    const [call] = rx.seen;
    expect(call!.body).toMatchObject({ event: 'export.completed', export_id: created.body.data.id });
    expect(call!.status).toBe(200);
    expect(call!.record).toMatchObject({
      id: created.body.data.id,
      status: 'completed',
      download_url: call!.body.download_url,
      file_size: call!.body.file_size,
    });
  });
});

describe('POST /exports/:id/cancel', () => {
  it('stops a job the worker is running: failed with EXPORT_CANCELLED, partial file removed, no call; full access only; 404 and 409', async () => {
    const s = seedLedger({ rows: 20_000 });
    const key = s.key();
    const readKey = s.key('read');
    const writeKey = s.key('write');
    s.engine.close();
    const calls: string[] = [];
    const rx = createServer((req, res) => req.on('data', () => undefined).on('end', () => (calls.push(req.url ?? ''), res.writeHead(200).end())));
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => rx.close(() => r())));
    const srv = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => srv.stop());
    const hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;

    const job = await api(srv, key, 'POST', '/exports', {
      workspace_id: WS,
      format: 'pdf',
      report_type: 'detailed',
      delivery: { method: 'webhook', webhook_url: hook },
    });
    const id = job.body.data.id as string;
    await until(
      async () => {
        const r = await api(srv, key, 'GET', `/exports/${id}`);
        return r.body.data.status === 'processing' && r.body.data.progress > 0;
      },
      60_000,
      'the job to run',
    );
    // A second job waits queued behind it; `txa export cancel` (remote backend) cancels that one.
    const queued = await api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'csv', delivery: { method: 'webhook', webhook_url: hook } });
    const sb = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: key, TXA_WORKSPACE: WS, TXA_DB: '' });
    const remote = await sb.json(['export', 'cancel', queued.body.data.id]);
    expect(remote.data).toMatchObject({ id: queued.body.data.id, status: 'failed', error: { code: 'EXPORT_CANCELLED' } });
    for (const k of [readKey, writeKey]) {
      const denied = await api(srv, k, 'POST', `/exports/${id}/cancel`);
      expect([denied.status, denied.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    }
    const cancelled = await api(srv, key, 'POST', `/exports/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id, status: 'failed', error: { code: 'EXPORT_CANCELLED', message: expect.any(String) } });
    expect(cancelled.body.data.progress).toBeUndefined();

    // The worker notices, removes its partial file and takes the next job; the record stays cancelled.
    const exportsDir = join(`${s.path}.files`, 'exports');
    const next = await api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'csv', delivery: { method: 'webhook', webhook_url: hook } });
    await until(async () => (await api(srv, key, 'GET', `/exports/${next.body.data.id}`)).body.data.status === 'completed', 60_000, 'the next job');
    expect(readdirSync(exportsDir).filter((f) => f.startsWith(id))).toEqual([]);
    expect((await api(srv, key, 'GET', `/exports/${id}`)).body.data).toMatchObject({ status: 'failed', error: { code: 'EXPORT_CANCELLED' } });
    // Only the last job calls the receiver (its record is completed just before the call).
    await until(() => calls.length > 0, 30_000, 'the call');
    expect(calls).toHaveLength(1);

    const again = await api(srv, key, 'POST', `/exports/${id}/cancel`);
    expect([again.status, again.body.error.code]).toEqual([409, 'EXPORT_NOT_CANCELLABLE']);
    const missing = await api(srv, key, 'POST', '/exports/exp_nope/cancel');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'EXPORT_NOT_FOUND']);
    expect(existsSync(exportsDir)).toBe(true);
  });

  it('txa export cancel through the remote backend: the same codes and exit codes', async () => {
    const s = seedLedger({ rows: 30 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    const sb = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: key, TXA_WORKSPACE: WS, TXA_DB: '' });
    const done = await sb.json(['export', 'create', '--format', 'csv', '--out', 'x.csv']);
    const refused = await sb.txa(['export', 'cancel', done.data.id]);
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: EXPORT_NOT_CANCELLABLE: export \S+ cannot be cancelled: it is completed/),
    ]);
    const missing = await sb.txa(['export', 'cancel', 'exp_nope', '--json']);
    expect(missing.exitCode).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('EXPORT_NOT_FOUND');
  });
});
