/** The remote backend against stub servers (429, odd bodies, paths) and a real `txa serve`. */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteBackend } from '../../src/remote/remote-backend.js';
import { apiRoot } from '../../src/remote/api-client.js';
import { TxaError } from '../../src/core/errors.js';
import { sandbox } from '../helpers/cli.js';
import { WS, seedLedger } from '../server/seed.js';
import { startServe } from '../server/serve-process.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}
type Reply = { status: number; headers?: Record<string, string>; body: string };

async function stub(replies: Reply[]) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      const r = replies[Math.min(seen.length - 1, replies.length - 1)]!;
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers }).end(r.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url, seen };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ok = (data: unknown): Reply => ({ status: 200, body: JSON.stringify({ success: true, data }) });
const limited = (retryAfter: number): Reply => ({
  status: 429,
  headers: { 'retry-after': String(retryAfter) },
  body: JSON.stringify({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down', retry_after: retryAfter } }),
});

async function caught(p: Promise<unknown>): Promise<TxaError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TxaError) return e;
    throw e;
  }
  throw new Error('expected a TxaError');
}

describe('base URL', () => {
  it('accepts the root, /v1 and /api/v1, with or without a slash, and never doubles the prefix', async () => {
    for (const base of ['http://h:1', 'http://h:1/', 'http://h:1/v1', 'http://h:1/v1/', 'http://h:1/api/v1', 'http://h:1/api/v1/']) {
      expect(apiRoot(base)).toBe('http://h:1/api/v1');
    }
    expect(apiRoot('https://x.example/txa/api/v1')).toBe('https://x.example/txa/api/v1');
    const s = await stub([ok([])]);
    for (const suffix of ['', '/v1', '/api/v1/']) {
      const r = new RemoteBackend({ baseUrl: s.url + suffix, apiKey: 'k' });
      await r.listTags('ws 1');
      await r.close();
    }
    expect(s.seen.map((x) => x.url)).toEqual(Array(3).fill('/api/v1/tags?workspace_id=ws+1'));
    expect(s.seen[0]!.headers.authorization).toBe('Bearer k');
  });
});

describe('errors', () => {
  it('turns API error bodies into the same TxaError', async () => {
    const s = await stub([{ status: 409, body: JSON.stringify({ success: false, error: { code: 'TAG_ALREADY_EXISTS', message: 'taken', field: 'name' } }) }]);
    const e = await caught(new RemoteBackend({ baseUrl: s.url, apiKey: 'k' }).createTag(WS, { name: 'x', type: 'income' }));
    expect([e.code, e.field, e.message, e.exitCode]).toEqual(['TAG_ALREADY_EXISTS', 'name', 'taken', 1]);
  });

  it('retries a 429 after Retry-After, says so, and reuses the Idempotency-Key', async () => {
    const s = await stub([limited(1), limited(1), { status: 201, body: JSON.stringify({ success: true, data: { id: 'tag_1' } }) }]);
    const notices: string[] = [];
    const waits: number[] = [];
    const r = new RemoteBackend({ baseUrl: s.url, apiKey: 'k', onNotice: (m) => notices.push(m), sleep: async (ms) => void waits.push(ms) });
    expect(await r.createTag(WS, { name: 'x', type: 'income' })).toEqual({ id: 'tag_1' });
    expect(waits).toEqual([1000, 1000]);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/Rate limited .* retrying in 1 s \(retry 1 of 3\)/);
    const keys = s.seen.map((x) => x.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives up after the bounded retries, and at once when Retry-After is long (exit 5)', async () => {
    const s = await stub([limited(1)]);
    const r = new RemoteBackend({ baseUrl: s.url, apiKey: 'k', sleep: async () => undefined });
    const e = await caught(r.listTags(WS));
    expect([e.code, e.exitCode, e.extra?.retry_after]).toEqual(['RATE_LIMIT_EXCEEDED', 5, 1]);
    expect(s.seen).toHaveLength(4);
    const long = await stub([limited(3000)]);
    const e2 = await caught(new RemoteBackend({ baseUrl: long.url, apiKey: 'k', sleep: async () => undefined }).listTags(WS));
    expect(e2.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(long.seen).toHaveLength(1);
  });

  it('a non-API answer is an error naming the status, not a crash', async () => {
    const s = await stub([{ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad gateway</html>' }]);
    const e = await caught(new RemoteBackend({ baseUrl: s.url, apiKey: 'k' }).listTags(WS));
    expect(e.code).toBe('INTERNAL_ERROR');
    expect(e.message).toContain('HTTP 502');
  });

  it('a server that is down is one CONNECTION_ERROR line naming the URL (exit 1)', async () => {
    const sb = sandbox({ TXA_BASE_URL: 'http://127.0.0.1:9/v1', TXA_API_KEY: 'txa_live_x' });
    const r = await sb.txa(['-w', WS, 'tags', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: CONNECTION_ERROR: cannot reach the txa API at http:\/\/127\.0\.0\.1:9\/api\/v1: .*ECONNREFUSED/),
    ]);
  });
});

describe('against txa serve', () => {
  it('maps 401, 403 and 429 to exit codes 4, 4 and 5 with the API codes', async () => {
    const s = seedLedger({ tier: 'enterprise', rateLimit: 2 });
    const key = s.key('read');
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    const sb = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: key });
    expect((await sb.txa(['-w', WS, 'tags', 'list'])).exitCode).toBe(0);
    const denied = await sb.txa(['-w', WS, 'tags', 'create', '--name', 'x', '--type', 'income']);
    expect([denied.exitCode, denied.stderr]).toEqual([4, expect.stringContaining('INSUFFICIENT_PERMISSIONS')]);
    const limited = await sb.txa(['-w', WS, 'tags', 'list', '--json']);
    expect(limited.exitCode).toBe(5);
    expect(JSON.parse(limited.stderr).error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retry_after: expect.any(Number) });
    const bad = await sb.txa(['-w', WS, 'tags', 'list'], { env: { ...sb.env, TXA_API_KEY: 'txa_live_nope' } });
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr.split('\n')).toEqual(['error: UNAUTHORIZED: Invalid or missing API key', expect.stringContaining('TXA_API_KEY')]);
  });

  it('downloads an export through its signed link into the --out file', async () => {
    const s = seedLedger({ rows: 25 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    const sb = sandbox({ TXA_BASE_URL: `${srv.url}/api/v1/`, TXA_API_KEY: key });
    const created = await sb.json(['-w', WS, 'export', 'create', '--format', 'json', '--out', 'first.json']);
    const again = await sb.json(['-w', WS, 'export', 'download', created.data.id, '--out', 'again.json']);
    expect(again.data.bytes).toBe(created.data.file_size);
    const a = readFileSync(join(sb.dir, 'first.json'), 'utf8');
    expect(readFileSync(join(sb.dir, 'again.json'), 'utf8')).toBe(a);
    expect(JSON.parse(a).transactions).toHaveLength(25);
    const missing = await sb.txa(['-w', WS, 'export', 'download', created.data.id, '--out', 'no/such/dir/x.json']);
    expect([missing.exitCode, missing.stderr]).toEqual([2, expect.stringContaining('USAGE_ERROR (out)')]);
  });
});
