/**
 * Bodies over the limit on a real listening server: always a 413 PAYLOAD_TOO_LARGE with the
 * API's error body, never a reset, with and without `Expect: 100-continue`, repeated; and the
 * remote CLI's `tx attach` of a big file against a real `txa serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Agent as HttpAgent, get as httpGet, request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { sandbox } from '../helpers/cli.js';
import { WS, seedLedger, type Seeded } from './seed.js';
import { startServe } from './serve-process.js';

const BIG = Buffer.alloc(11 * 1024 * 1024, 0x61);
const TRIES = 10;

let s: Seeded;
let app: FastifyInstance;
let port: number;
let key: string;

beforeAll(async () => {
  s = seedLedger({ rows: 3 });
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  key = s.key('full');
});
afterAll(async () => {
  await app.close();
  s.engine.close();
});

interface RawAnswer {
  /** Status lines of interim (1xx) answers. */
  interim: string[];
  status: number;
  head: string;
  body: string;
  /** What the socket reported, if anything (EPIPE, ECONNRESET). */
  socketError?: string;
}

/**
 * One request over a plain socket, as curl sends it: the body right after the head, or, with
 * `Expect: 100-continue`, only once the server says `100 Continue`. Like curl, it is done when the
 * final answer is complete and the body it started sending is sent (a reset while sending is
 * curl's exit 55), or when the socket ends.
 */
function rawRequest(head: string, body: Buffer): Promise<RawAnswer> {
  const expectContinue = /^expect: 100-continue$/im.test(head);
  return new Promise((resolve) => {
    const answer: RawAnswer = { interim: [], status: 0, head: '', body: '' };
    let buf = Buffer.alloc(0);
    let sending = false;
    let answered = false;
    const send = () => {
      sending = true;
      socket.write(body, (err) => {
        if (err) answer.socketError = (err as NodeJS.ErrnoException).code ?? err.message;
        sending = false;
        finish();
      });
    };
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      if (!expectContinue) send();
    });
    const finish = () => {
      if (!answered || sending) return;
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = buf.subarray(0, end).toString('latin1');
        const status = Number(headText.split(' ')[1]);
        if (status >= 100 && status < 200) {
          answer.interim.push(headText.split('\r\n')[0]!);
          buf = buf.subarray(end + 4);
          if (status === 100) send();
          continue;
        }
        const length = Number(/^content-length: *(\d+)/im.exec(headText)?.[1] ?? NaN);
        if (buf.length - end - 4 < length) return;
        Object.assign(answer, { status, head: headText, body: buf.subarray(end + 4, end + 4 + length).toString('utf8') });
        answered = true;
        return finish();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (answer.socketError = err.code ?? err.message));
    socket.on('close', () => resolve(answer));
  });
}

const attachHead = (extra = '') =>
  `POST /api/v1/transactions/${s.txIds[0]}/attachments?workspace_id=${WS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
  `Content-Type: application/pdf\r\nX-File-Name: big.pdf\r\nContent-Length: ${BIG.length}\r\n${extra}\r\n`;

const tooLarge = { success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'the request body is larger than this endpoint accepts' } };

describe('413 PAYLOAD_TOO_LARGE, never a reset', () => {
  it(`an 11 MB attachment sent straight away: the 413 every time (${TRIES} tries), without closing the connection`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const r = await rawRequest(attachHead(), BIG);
      expect([i, r.status, r.socketError, JSON.parse(r.body)]).toEqual([i, 413, undefined, tooLarge]);
      expect(r.head).not.toMatch(/^connection: close/im);
    }
  });

  it(`with Expect: 100-continue the 413 comes first and the body is never asked for (${TRIES} tries)`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const r = await rawRequest(attachHead('Expect: 100-continue\r\n'), BIG);
      expect([i, r.interim, r.status, r.socketError, JSON.parse(r.body)]).toEqual([i, [], 413, undefined, tooLarge]);
      expect(r.head).toMatch(/^connection: close/im);
    }
  });

  it('with Expect: 100-continue a body that fits is asked for, and a bad key is refused before it is sent', async () => {
    const small = Buffer.from('%PDF-1.4 receipt');
    const ok = await rawRequest(attachHead('Expect: 100-continue\r\n').replace(String(BIG.length), String(small.length)), small);
    expect([ok.interim, ok.status]).toEqual([['HTTP/1.1 100 Continue'], 201]);
    const denied = await rawRequest(attachHead('Expect: 100-continue\r\n').replace(key, 'txa_live_nope'), BIG);
    expect([denied.interim, denied.status, JSON.parse(denied.body).error.code]).toEqual([[], 401, 'UNAUTHORIZED']);
    expect(denied.head).toMatch(/^connection: close/im);
  });

  it(`with Connection: close, every early answer to an 11 MB body arrives (413, 401, 403, 404, 400 and 414 of the router; ${TRIES} tries each), never a reset`, async () => {
    const readKey = s.key('read');
    const cases: [string, number, string][] = [
      [attachHead('Connection: close\r\n'), 413, 'PAYLOAD_TOO_LARGE'],
      [attachHead('Connection: close\r\n').replace(key, 'txa_live_nope'), 401, 'UNAUTHORIZED'],
      [attachHead('Connection: close\r\n').replace(key, readKey), 403, 'INSUFFICIENT_PERMISSIONS'],
      [attachHead('Connection: close\r\n').replace('/api/v1/', '/api/v2/'), 404, 'NOT_FOUND'],
      [attachHead('Connection: close\r\n').replace(s.txIds[0]!, 'tx_%zz'), 400, 'INVALID_PARAMETERS'],
      [attachHead('Connection: close\r\n').replace(s.txIds[0]!, 'a'.repeat(101)), 414, 'INVALID_PARAMETERS'],
    ];
    for (const [head, status, code] of cases) {
      for (let i = 0; i < TRIES; i++) {
        const r = await rawRequest(head, BIG);
        expect([code, i, r.status, r.socketError, r.body && JSON.parse(r.body).error.code]).toEqual([code, i, status, undefined, code]);
        expect(r.head).toMatch(/^connection: close/im);
      }
    }
  });

  it(`a streamed body without Content-Length over the limit: the 413 every time (${TRIES} tries)`, async () => {
    const chunked = Buffer.concat([Buffer.from(`${BIG.length.toString(16)}\r\n`), BIG, Buffer.from('\r\n0\r\n\r\n')]);
    const head = attachHead().replace(`Content-Length: ${BIG.length}\r\n`, 'Transfer-Encoding: chunked\r\n');
    for (let i = 0; i < TRIES; i++) {
      const r = await rawRequest(head, chunked);
      expect([i, r.status, r.socketError, JSON.parse(r.body)]).toEqual([i, 413, undefined, tooLarge]);
    }
  });

  it(`node:http posting 11 MB of JSON to a 1 MB endpoint gets the 413 every time (${TRIES} tries), on one kept-alive connection`, async () => {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < TRIES; i++) {
      // Done when the request is closed: after the whole body was written, or after an error.
      const r = await new Promise<{ status: number; body: string; error?: string }>((resolve) => {
        const out: { status: number; body: string; error?: string } = { status: 0, body: '' };
        let ended = false;
        let closed = false;
        const done = () => ended && closed && resolve(out);
        const req = httpRequest(
          {
            agent,
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api/v1/tags',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': BIG.length },
          },
          (res) => {
            out.status = res.statusCode!;
            res.on('data', (d) => (out.body += d)).on('end', () => ((ended = true), done()));
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => ((out.error = err.code), (ended = true)));
        req.on('close', () => ((closed = true), done()));
        req.end(BIG);
      });
      expect([i, r.status, r.error, JSON.parse(r.body)]).toEqual([i, 413, undefined, tooLarge]);
    }
    const reused = await new Promise<boolean>((resolve) => {
      const req = httpGet({ agent, port, host: '127.0.0.1', path: '/api/v1/health' }, (res) =>
        res.resume().on('end', () => resolve(req.reusedSocket && res.statusCode === 200)),
      );
    });
    agent.destroy();
    expect(reused).toBe(true);
  });
});

describe('the remote CLI', () => {
  it('tx attach of an 11 MB file through txa serve: PAYLOAD_TOO_LARGE, exit 1', async () => {
    const served = seedLedger({ rows: 3 });
    const fullKey = served.key('full');
    const tx = served.txIds[0]!;
    served.engine.close();
    const srv = await startServe(served.path);
    try {
      const sb = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: fullKey });
      writeFileSync(join(sb.dir, 'scan.pdf'), BIG);
      for (let i = 0; i < 3; i++) {
        const r = await sb.txa(['-w', WS, 'tx', 'attach', tx, 'scan.pdf']);
        expect([i, r.exitCode, r.stderr.trim()]).toEqual([i, 1, 'error: PAYLOAD_TOO_LARGE: the request body is larger than this endpoint accepts']);
      }
    } finally {
      await srv.stop();
    }
  });
});
