/**
 * Every answer has the API's error body (docs/server.md "API conventions"), including the ones fastify and
 * Node's HTTP parser make before any route runs, and JSON nesting is bounded before anything
 * recursive reads a body. Requests go over plain sockets to a real listening server, so nothing
 * in between normalises them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Socket, connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { WS, seedLedger, type Seeded } from './seed.js';
import { api, startServe } from './serve-process.js';

let s: Seeded;
let app: FastifyInstance;
let port: number;
let key: string;

beforeEach(async () => {
  s = seedLedger({ rows: 3 });
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  key = s.key('full');
});
afterEach(async () => {
  await app.close();
  s.engine.close();
});

interface Answer {
  status: number;
  head: string;
  body: string;
}

/**
 * Sends `text` as is and reads the answer until the server ends the connection (every request
 * says `Connection: close`). The socket is not half-closed: Node takes a client's FIN as an abort.
 */
function send(text: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let buf = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => (buf = Buffer.concat([buf, d])));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = buf.toString('utf8');
      const end = raw.indexOf('\r\n\r\n');
      resolve({ status: Number(raw.split(' ')[1]), head: raw.slice(0, end), body: raw.slice(end + 4) });
    });
  });
}

const request = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n` +
  Object.entries({ ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  `\r\n${body}`;

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const json = { 'Content-Type': 'application/json' };

/** Each framework refusal: what triggers it, the status and code it must come out with. */
const TRIGGERS: [string, number, string, () => string][] = [
  ['a path that is not valid percent-encoding', 400, 'INVALID_PARAMETERS', () => request('GET', '/api/v1/tags/%ff')],
  ['a bad escape outside the API prefix', 400, 'INVALID_PARAMETERS', () => request('GET', '/%ff')],
  ['a path parameter over 100 characters (GET)', 414, 'INVALID_PARAMETERS', () => request('GET', `/api/v1/transactions/${'a'.repeat(101)}`)],
  ['a path parameter over 100 characters (DELETE)', 414, 'INVALID_PARAMETERS', () => request('DELETE', `/api/v1/tags/${'a'.repeat(150)}`)],
  ['an unknown route', 404, 'NOT_FOUND', () => request('GET', '/api/v1/nope')],
  ['a wrong method', 405, 'METHOD_NOT_ALLOWED', () => request('PUT', '/api/v1/tags')],
  ['a body of another media type', 400, 'INVALID_JSON', () => request('POST', '/api/v1/tags', { 'Content-Type': 'text/plain' }, 'name=x')],
  ['a body without a content type', 400, 'INVALID_JSON', () => request('POST', '/api/v1/tags', {}, '{"name":"x"}')],
  ['a content type that is no media type', 400, 'INVALID_JSON', () => request('POST', '/api/v1/tags', { 'Content-Type': '/' }, '{}')],
  ['malformed JSON', 400, 'INVALID_JSON', () => request('POST', '/api/v1/tags', json, '{"name": ')],
  ['JSON nested 5,000 deep', 400, 'INVALID_JSON', () => request('POST', '/api/v1/exports', json, deep(5000))],
  [
    'JSON nested 5,000 deep with an Idempotency-Key',
    400,
    'INVALID_JSON',
    () => request('POST', '/api/v1/tags', { ...json, 'Idempotency-Key': 'k-deep' }, deep(5000)),
  ],
  [
    'JSON nested 5,000 deep inside an object',
    400,
    'INVALID_JSON',
    () => request('POST', '/api/v1/tags', json, `{"workspace_id":"${WS}","name":${deep(5000)}}`),
  ],
  ['a JSON body over 1 MB', 413, 'PAYLOAD_TOO_LARGE', () => request('POST', '/api/v1/tags', json, `{"name":"${'x'.repeat(1024 * 1024)}"}`)],
  ['a request line Node cannot parse', 400, 'INVALID_PARAMETERS', () => 'GET /api/v1/health HTTP/1.1 extra\r\nHost: x\r\n\r\n'],
  ['a Content-Length that is not a number', 400, 'INVALID_PARAMETERS', () => request('POST', '/api/v1/tags', { ...json, 'Content-Length': 'abc' })],
  [
    'both Content-Length and Transfer-Encoding',
    400,
    'INVALID_PARAMETERS',
    () => request('POST', '/api/v1/tags', { ...json, 'Content-Length': '2', 'Transfer-Encoding': 'chunked' }, '{}'),
  ],
  ['headers over 16 KB', 431, 'INVALID_PARAMETERS', () => request('GET', `/api/v1/tags?workspace_id=${WS}`, { 'X-Filler': 'a'.repeat(20_000) })],
];

describe('framework and parser errors in the API error shape', () => {
  it.each(TRIGGERS)('%s → %i %s', async (_what, status, code, text) => {
    const r = await send(text());
    expect(r.status).toBe(status);
    expect(r.head).toMatch(/^content-type: application\/json/im);
    const body = JSON.parse(r.body);
    expect(body).toEqual({ success: false, error: { code, message: expect.any(String) } });
    expect(body.error.message).not.toMatch(/FST_|fastify|at \w+ \(/);
  });

  it("a HEAD over 16 KB gets its 431 without a body, which Node's own client reads (defect D2)", async () => {
    const r = await send(request('HEAD', `/api/v1/tags?workspace_id=${WS}&x=${'a'.repeat(20_000)}`));
    expect([r.status, r.body]).toEqual([431, '']);
    expect(r.head).toMatch(/^content-length: \d+/im);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'HEAD', path: `/api/v1/tags?x=${'a'.repeat(20_000)}` }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
  });

  it('bytes after a request that asked to close (a GET body sent without Content-Length) get no answer of their own', async () => {
    // The request's own answer, whether made at once (414) or after the handler ran (200), and only it.
    for (const [path, status] of [
      [`/api/v1/transactions/${'a'.repeat(101)}`, 414],
      ['/api/v1/health', 200],
    ] as const) {
      const r = await send(`${request('GET', path)}{`);
      expect([path, r.status, r.body.includes('HTTP/1.1')]).toEqual([path, status, false]);
      expect(JSON.parse(r.body)).toHaveProperty('success');
    }
  });

  it('nesting up to 32 levels is read as usual; 33 is refused with the reason', async () => {
    const nested = (n: number) => `{"workspace_id":"${WS}","name":"n","type":"income","x":${deep(n - 1)}}`;
    const ok = await send(request('POST', '/api/v1/tags', json, nested(32)));
    expect(ok.status).toBe(201);
    const tooDeep = await send(request('POST', '/api/v1/tags', json, nested(33).replace('"n"', '"m"')));
    expect([tooDeep.status, JSON.parse(tooDeep.body).error.message]).toEqual([400, 'the request body nests arrays and objects deeper than 32 levels']);
    const inString = await send(
      request('POST', '/api/v1/tags', json, `{"workspace_id":"${WS}","name":"b","type":"income","description":"${'['.repeat(100)}\\"${'{'.repeat(60)}"}`),
    );
    expect(inString.status).toBe(201); // brackets inside strings are text
  });

  it('the Idempotency-Key of a refused deep body is not used up', async () => {
    const headers = { ...json, 'Idempotency-Key': 'k-1' };
    expect((await send(request('POST', '/api/v1/tags', headers, deep(5000)))).status).toBe(400);
    const fixed = await send(request('POST', '/api/v1/tags', headers, JSON.stringify({ workspace_id: WS, name: 'Fixed', type: 'income' })));
    expect(fixed.status).toBe(201);
  });

  it('a request arriving while the server shuts down: 503 in the API error shape', async () => {
    // A keep-alive connection open before close() starts sends its next request during preClose.
    const closing = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
    let received = '';
    const socket = new Socket();
    closing.addHook('preClose', async () => {
      received = '';
      socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise<void>((r) => socket.once('close', () => r()));
    });
    const closingPort = Number(new URL(await closing.listen({ port: 0, host: '127.0.0.1' })).port);
    socket.connect(closingPort, '127.0.0.1');
    socket.on('data', (d) => (received += d));
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((r) => {
      const t = setInterval(() => received.includes('"ok"') && (clearInterval(t), r()), 10);
    });
    await closing.close();
    expect(received.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(received).toMatch(/^connection: close/im);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'the server is shutting down; retry in a moment' },
    });
  });
});

describe('txa serve', () => {
  it('5,000 nested arrays as an export body: 400 INVALID_JSON, and the export worker keeps serving', async () => {
    const served = seedLedger({ rows: 5 });
    const fullKey = served.key('full');
    served.engine.close();
    const srv = await startServe(served.path);
    try {
      const res = await fetch(`${srv.url}/api/v1/exports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fullKey}`, 'content-type': 'application/json' },
        body: deep(5000),
      });
      expect([res.status, ((await res.json()) as any).error.code]).toEqual([400, 'INVALID_JSON']);
      const ok = await api(srv, fullKey, 'POST', '/exports', { workspace_id: WS, format: 'csv' });
      expect([ok.status, ok.body.data.status]).toEqual([201, 'completed']);
    } finally {
      await srv.stop();
    }
  });
});
