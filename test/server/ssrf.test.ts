/**
 * SSRF through the server's own calls, on a real `txa serve`: literal private targets are refused
 * when an export or a subscription is created, and a name that passes creation but resolves to
 * loopback (TEST_HOSTS points `receiver.test` at 127.0.0.1 inside serve, as an /etc/hosts line
 * would) is refused when the export's `export.completed` call and the subscription's delivery
 * connect. With --allow-private-webhooks the same calls arrive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { WS, seedLedger } from './seed.js';
import { api, startServe, until, type ServeProcess } from './serve-process.js';

const PRELOAD = resolve(import.meta.dirname, '../helpers/hosts-preload.mjs');
const HOSTS = { NODE_OPTIONS: `--import=${PRELOAD}`, TEST_HOSTS: 'receiver.test=127.0.0.1' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  const rx = createServer((req, res) => {
    paths.push(req.url!);
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => rx.close(() => r())));
  return { port: (rx.address() as AddressInfo).port, paths };
}

async function serve(args: string[] = []): Promise<{ srv: ServeProcess; key: string }> {
  const s = seedLedger({ rows: 20 });
  const key = s.key();
  s.engine.close();
  const srv = await startServe(s.path, args, HOSTS);
  cleanups.push(() => srv.stop());
  return { srv, key };
}

const webhookExport = (url: string) => ({ workspace_id: WS, format: 'csv', delivery: { method: 'webhook', webhook_url: url } });

/** A webhook export is completed before its call and failed once the call is refused (docs/exports.md): waits for `status`. */
async function reaches(srv: ServeProcess, key: string, id: string, status: 'completed' | 'failed') {
  return until(
    async () => {
      const r = await api(srv, key, 'GET', `/exports/${id}`);
      return r.body.data.status === status && r.body.data;
    },
    20_000,
    `export ${id} to be ${status}`,
  );
}

describe('serve without --allow-private-webhooks', () => {
  it('refuses literal private targets at creation: 400 INVALID_FIELD with the field', async () => {
    const { srv, key } = await serve();
    const hosts = [
      '127.0.0.1',
      '127.1',
      '0.0.0.0',
      'localhost',
      'localhost.',
      '[::1]',
      '[::127.0.0.1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      '[64:ff9b::a9fe:a9fe]',
      '[fd00::1]',
      '100.64.0.1',
      '169.254.169.254',
    ];
    for (const host of hosts) {
      const exp = await api(srv, key, 'POST', '/exports', webhookExport(`http://${host}:8080/hook`));
      expect([host, exp.status, exp.body.error.code, exp.body.error.field]).toEqual([host, 400, 'INVALID_FIELD', 'delivery.webhook_url']);
      const sub = await api(srv, key, 'POST', '/webhooks', { url: `http://${host}:8080/hook` });
      expect([host, sub.status, sub.body.error.code, sub.body.error.field]).toEqual([host, 400, 'INVALID_FIELD', 'url']);
    }
    expect((await api(srv, key, 'GET', `/exports?workspace_id=${WS}`)).body.pagination.total).toBe(0);
  });

  it('a name resolving to loopback passes creation, but neither the export call nor the subscription delivery reaches it', async () => {
    const rx = await receiver();
    const { srv, key } = await serve();
    const url = `http://receiver.test:${rx.port}/hook`;
    expect((await api(srv, key, 'POST', '/webhooks', { url, events: ['export.completed'] })).status).toBe(201);
    const job = await api(srv, key, 'POST', '/exports', webhookExport(url));
    expect(job.status).toBe(202);
    const done = await reaches(srv, key, job.body.data.id, 'failed');
    expect(done.error).toEqual({
      code: 'DELIVERY_FAILED',
      message: `${url} was not called: refused: receiver.test resolves to the private address 127.0.0.1; serve refuses private and loopback targets unless started with --allow-private-webhooks`,
    });
    const events = await until(
      async () => {
        const r = await api(srv, key, 'GET', `/events?workspace_id=${WS}&type=export.completed`);
        return r.body.data[0]?.deliveries[0]?.attempts.length > 0 && r.body.data;
      },
      10_000,
      'the refused delivery',
    );
    expect(events[0].deliveries[0].attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^refused: receiver\.test resolves to the private address 127\.0\.0\.1/),
    });
    expect(rx.paths).toEqual([]);
  });
});

describe('serve --allow-private-webhooks', () => {
  it('delivers to the same name as before', async () => {
    const rx = await receiver();
    const { srv, key } = await serve(['--allow-private-webhooks']);
    const job = await api(srv, key, 'POST', '/exports', webhookExport(`http://receiver.test:${rx.port}/hook`));
    expect(job.status).toBe(202);
    await reaches(srv, key, job.body.data.id, 'completed');
    await until(() => rx.paths.length > 0, 10_000, 'the export call');
    expect(rx.paths).toEqual(['/hook']);
  });
});
