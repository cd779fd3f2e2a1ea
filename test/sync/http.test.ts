/**
 * One call of src/sync/http.ts as the explorers and price APIs make it (docs/sync.md "Rows a sync
 * refuses"): the body whole, or a failure that says why (past the size cap, closed mid-body, past
 * the deadline, a rate limit), and the next call still answered.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Retryable, Unusable, getAnswer } from '../../src/sync/http.js';

let server: Server;
let base: string;
const routes: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.end(JSON.stringify({ ok: true })),
  '/big': (res) => res.end('x'.repeat(4096)),
  '/cut': (res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('only part of it');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/slow': (res) => {
    res.writeHead(200);
    res.write('[');
    setTimeout(() => res.end(']'), 1000);
  },
  '/limited': (res) => {
    res.writeHead(429, { 'retry-after': '2' });
    res.end('slow down');
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const limits = { maxBytes: 1024, deadlineMs: 300 };
const failure = async (path: string) => {
  try {
    await getAnswer(new URL(base + path), {}, limits);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${path} answered`);
};

describe('sync http calls', () => {
  it('answers whole, calls one after the other', async () => {
    for (let i = 0; i < 20; i++) expect(await getAnswer(new URL(`${base}/ok`), {}, limits)).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it('a body past the cap is Unusable; a body cut short and a call past its deadline are Retryable; the next call still answers', async () => {
    const big = await failure('/big');
    expect(big).toBeInstanceOf(Unusable);
    expect(big.message).toMatch(/^more than \d+ MiB$/);
    const cut = await failure('/cut');
    expect(cut).toBeInstanceOf(Retryable);
    expect(cut.message).toMatch(/^connection failed \(/);
    const slow = await failure('/slow');
    expect(slow).toBeInstanceOf(Retryable);
    expect(slow.message).toBe('no complete answer within 0.3 s');
    expect((await getAnswer(new URL(`${base}/ok`), {}, limits)).text).toBe('{"ok":true}');
  });

  it('429 is a rate limit with its Retry-After; a 404 is an answer for the API to judge', async () => {
    const limited = (await failure('/limited')) as Retryable;
    expect([limited.rateLimited, limited.waitMs, limited.message]).toEqual([true, 2000, 'HTTP 429 (rate limit)']);
    expect(await getAnswer(new URL(`${base}/nothing`), {}, limits)).toEqual({ status: 404, text: '' });
  });
});
