/**
 * Exports through a real `txa serve`: the signed link as the only credential, queued jobs run by
 * the worker thread with visible progress, and a job cut off by SIGKILL finished after a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WS, seedLedger } from './seed.js';
import { startServe, until, api } from './serve-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('exports in serve', () => {
  it('a download export is served by its signed link alone; a wrong token is 403', async () => {
    const s = seedLedger({ rows: 30 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    const r = await api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'csv', options: { include_summary: false } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 30 });
    const link: string = r.body.data.download_url;
    expect(link.startsWith(`${srv.url}/api/v1/exports/${r.body.data.id}/download?expires=`)).toBe(true);
    const file = await fetch(link);
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(text.trim().split(/\r?\n/)).toHaveLength(31);
    expect(Buffer.byteLength(text)).toBe(r.body.data.file_size);
    const bad = await fetch(link.replace(/token=([0-9a-f])/, (_m, c) => `token=${c === '0' ? '1' : '0'}`));
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as any).error.code).toBe('INVALID_DOWNLOAD_TOKEN');
  });

  it('runs queued exports in the worker, shows progress, and finishes a job cut off by SIGKILL after a restart', async () => {
    const s = seedLedger({ rows: 12_000 });
    const key = s.key();
    s.engine.close();
    const calls: string[] = [];
    const rx = createServer((req, res) => {
      let body = '';
      req
        .on('data', (d) => (body += d))
        .on('end', () => {
          calls.push(body);
          res.writeHead(200).end();
        });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => rx.close(() => r())));
    const hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/done`;
    let srv = await startServe(s.path, ['--allow-private-webhooks']);
    const job = await api(srv, key, 'POST', '/exports', {
      workspace_id: WS,
      format: 'pdf',
      report_type: 'detailed',
      delivery: { method: 'webhook', webhook_url: hook },
    });
    expect(job.status).toBe(202);
    expect(job.body.data).toMatchObject({ status: 'queued', progress: 0 });
    expect(job.body.data.status_url).toBe(`${srv.url}/api/v1/exports/${job.body.data.id}`);
    const id = job.body.data.id as string;
    const running = await until(
      async () => {
        const r = await api(srv, key, 'GET', `/exports/${id}`);
        return r.body.data.status === 'processing' && r.body.data.progress > 0 && r.body.data.progress < 100 && r.body.data;
      },
      60_000,
      'progress',
    );
    expect(running.estimated_completion).toMatch(/Z$/);
    // The request thread stays responsive while the worker renders.
    const t0 = Date.now();
    expect((await api(srv, key, 'GET', `/tags?workspace_id=${WS}`)).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
    await srv.stop('SIGKILL');
    srv = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => srv.stop());
    const done = await until(
      async () => {
        const r = await api(srv, key, 'GET', `/exports/${id}`);
        return ['completed', 'failed'].includes(r.body.data.status) && r.body.data;
      },
      120_000,
      'the resumed job',
    );
    expect(done.status).toBe('completed');
    expect(done.transaction_count).toBe(12_000);
    await until(() => calls.length > 0, 20_000, 'export.completed');
    expect(JSON.parse(calls[0]!)).toMatchObject({ event: 'export.completed', export_id: id, format: 'pdf', transaction_count: 12_000 });
    expect(done.file_size).toBeGreaterThan(100_000);
  });
});

describe('download exports in serve', () => {
  it('are written off the request thread: a large PDF does not stall other requests', async () => {
    const s = seedLedger({ rows: 20_000 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    let finished = false;
    const exp = api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'pdf', report_type: 'detailed' }).then((r) => {
      finished = true;
      return r;
    });
    const slowest: number[] = [];
    while (!finished) {
      const t = Date.now();
      expect((await fetch(`${srv.url}/api/v1/health`)).status).toBe(200);
      slowest.push(Date.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
    const r = await exp;
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ status: 'completed', format: 'pdf', transaction_count: 20_000 });
    expect(slowest.length).toBeGreaterThan(10);
    expect(Math.max(...slowest)).toBeLessThan(500);
    const bad = await api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'pdf' });
    expect([bad.status, bad.body.error]).toEqual([400, { code: 'MISSING_REPORT_TYPE', message: expect.any(String), field: 'report_type' }]);
  });
});
