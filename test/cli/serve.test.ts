/** `txa serve` as a process: flags, the listening line, and graceful shutdown on SIGTERM. */
import { describe, expect, it } from 'vitest';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandbox } from '../helpers/cli.js';
import { seedLedger, WS } from '../server/seed.js';
import { startServe, until } from '../server/serve-process.js';

describe('txa serve', () => {
  it('refuses bad flags before starting, and a remote backend', async () => {
    const sb = sandbox();
    const port = await sb.txa(['serve', '--port', 'http']);
    expect([port.exitCode, port.stderr]).toEqual([2, expect.stringContaining('USAGE_ERROR (port)')]);
    const url = await sb.txa(['serve', '--port', '0', '--public-url', 'example.com']);
    expect([url.exitCode, url.stderr]).toEqual([2, expect.stringContaining('USAGE_ERROR (public-url)')]);
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const inUse = await sb.txa(['serve', '--port', String((taken.address() as AddressInfo).port)]);
    taken.close();
    expect([inUse.exitCode, inUse.stderr]).toEqual([2, expect.stringContaining('is already in use')]);
    const remote = await sb.txa(['--base-url', 'http://127.0.0.1:9', 'serve']);
    expect([remote.exitCode, remote.stderr]).toEqual([2, expect.stringContaining('LOCAL_ONLY')]);
  });

  it('uses --public-url for attachment URLs', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path, ['--public-url', 'https://txa.example.com/']);
    try {
      await until(() => srv.stderr().includes('public URL https://txa.example.com'), 5000, 'the public URL line');
      const res = await fetch(`${srv.url}/api/v1/transactions/${s.txIds[0]}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain', 'x-file-name': 'r.txt' },
        body: 'x',
      });
      const att = ((await res.json()) as any).data;
      expect(att.file_url).toBe(`https://txa.example.com/api/v1/attachments/${att.id}`);
    } finally {
      await srv.stop();
    }
  });

  it('on SIGTERM stops accepting but finishes the request in flight', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    const { port } = new URL(srv.url);
    const body = Buffer.alloc(200_000, 7);
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/v1/transactions/${s.txIds[0]}/attachments?workspace_id=${WS}`,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream', 'x-file-name': 'slow.bin', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 1000));
      setTimeout(() => {
        srv.proc.kill('SIGTERM');
        setTimeout(() => req.end(body.subarray(1000)), 700);
      }, 300);
    });
    const res = await response;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text).data).toMatchObject({ file_name: 'slow.bin', file_size: 200_000 });
    const done = await srv.proc;
    expect([done.exitCode, done.signal, done.isTerminated], srv.stderr()).toEqual([0, undefined, false]);
    expect(srv.stderr()).toContain('SIGTERM: finishing in-flight requests');
    await expect(fetch(`${srv.url}/api/v1/health`)).rejects.toThrow();
  });

  it('never logs keys or download tokens, even at log level info', async () => {
    const s = seedLedger({ rows: 5 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path, [], { TXA_LOG_LEVEL: 'info' });
    try {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      await fetch(`${srv.url}/api/v1/tags?workspace_id=${WS}`, { headers });
      await fetch(`${srv.url}/api/v1/tags?workspace_id=${WS}`, { headers: { authorization: 'Bearer txa_live_guessed_key' } });
      const exp = (await (
        await fetch(`${srv.url}/api/v1/exports`, { method: 'POST', headers, body: JSON.stringify({ workspace_id: WS, format: 'csv' }) })
      ).json()) as any;
      const token = /token=([0-9a-f]+)/.exec(exp.data.download_url)![1]!;
      expect((await fetch(exp.data.download_url)).status).toBe(200);
      await until(() => srv.stderr().includes('/download'), 5000, 'the request log');
      const log = srv.stderr();
      expect(log).toContain(`"url":"/api/v1/tags?workspace_id=${WS}"`);
      expect(log).not.toContain(key.slice(9));
      expect(log).not.toContain('txa_live_guessed_key');
      expect(log).not.toContain(token);
      expect(log).toContain('token=[redacted]');
    } finally {
      await srv.stop();
    }
  });
});
