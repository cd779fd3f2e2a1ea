/**
 * Webhook delivery through a real `txa serve`: Standard Webhooks signatures, retries after a 500,
 * a hanging receiver cut off by the timeout without slowing the API, and a SIGKILL mid-delivery
 * after which the restarted server completes the delivery with the same webhook-id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Engine } from '../../src/engine/engine.js';
import { listEvents } from '../../src/engine/events.js';
import { deliveryLookup } from '../../src/engine/webhooks.js';
import { WS, seedLedger } from './seed.js';
import { startServe, until, api } from './serve-process.js';

type Behaviour = 200 | 500 | 'hang';
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

async function receiver(plan: Behaviour[]) {
  const received: Received[] = [];
  const hanging: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const b = plan[received.length - 1] ?? 200;
      if (b === 'hang') hanging.push(() => res.destroy());
      else res.writeHead(b).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        hanging.forEach((h) => h());
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function deliveries(path: string) {
  const engine = Engine.open(path);
  try {
    return listEvents(engine, WS, {}, deliveryLookup(engine)).data;
  } finally {
    engine.close();
  }
}

describe('webhook delivery', () => {
  it('signs with the event id, retries a 500, and records every attempt', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const rx = await receiver([500, 200]);
    cleanups.push(rx.close);
    const srv = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => srv.stop());
    const hook = await api(srv, key, 'POST', '/webhooks', { url: rx.url, events: ['tag.created'] });
    expect(hook.status).toBe(201);
    const tag = await api(srv, key, 'POST', '/tags', { workspace_id: WS, name: 'Salary', type: 'income' });
    await api(srv, key, 'PATCH', `/tags/${tag.body.data.id}`, { name: 'Pay' }); // tag.updated: not subscribed
    await until(() => rx.received.length >= 2, 20_000, 'the retry');
    const [first, second] = rx.received as [Received, Received];
    expect(first.headers['webhook-id']).toBe(second.headers['webhook-id']);
    const event = JSON.parse(second.body);
    expect(first.headers['webhook-id']).toBe(event.event_id);
    expect(event).toMatchObject({ event: 'tag.created', workspace_id: WS, tag: { id: tag.body.data.id, name: 'Salary' } });
    expect(new Webhook(hook.body.data.secret).verify(second.body, second.headers as Record<string, string>)).toEqual(event);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(second.body, second.headers as Record<string, string>)).toThrow();
    const state = await until(
      () => deliveries(s.path).find((e) => e.type === 'tag.created')?.deliveries[0]?.status === 'succeeded' && deliveries(s.path),
      5000,
      'recorded success',
    );
    const d = state.find((e) => e.type === 'tag.created')!.deliveries;
    expect(d).toHaveLength(1);
    expect(d[0]!.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
    expect(state.find((e) => e.type === 'tag.updated')!.deliveries).toEqual([]);
    expect(rx.received).toHaveLength(2);
  });

  it('cuts off a receiver that hangs, while the API keeps answering', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const rx = await receiver(['hang', 'hang', 'hang']);
    cleanups.push(rx.close);
    const srv = await startServe(s.path, ['--allow-private-webhooks'], { TXA_WEBHOOK_TIMEOUT_MS: '800' });
    cleanups.push(() => srv.stop());
    await api(srv, key, 'POST', '/webhooks', { url: rx.url });
    await api(srv, key, 'POST', '/tags', { workspace_id: WS, name: 'Slow', type: 'neutral' });
    await until(() => rx.received.length >= 1, 5000, 'the first attempt');
    const t0 = Date.now();
    const health = await fetch(`${srv.url}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(500);
    const attempt = await until(() => deliveries(s.path).find((e) => e.type === 'tag.created')?.deliveries[0]?.attempts[0], 5000, 'the timed-out attempt');
    expect(attempt).toMatchObject({ status_code: null, error: 'timeout after 800 ms' });
    expect(deliveries(s.path).find((e) => e.type === 'tag.created')!.deliveries[0]!.status).toBe('pending');
  });

  it('refuses private targets at delivery time unless allowed', async () => {
    const s = seedLedger();
    const key = s.key();
    const { createWebhook } = await import('../../src/engine/webhooks.js');
    const rx = await receiver([200]);
    cleanups.push(rx.close);
    createWebhook(s.engine, WS, { url: rx.url.replace('127.0.0.1', 'localhost') }); // added locally, bypassing the API's check
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());
    await api(srv, key, 'POST', '/tags', { workspace_id: WS, name: 'Internal', type: 'neutral' });
    const attempt = await until(() => deliveries(s.path).find((e) => e.type === 'tag.created')?.deliveries[0]?.attempts[0], 5000, 'the refused attempt');
    expect(attempt.error).toMatch(/private address/);
    expect(rx.received).toHaveLength(0);
  });

  it('survives a SIGKILL mid-delivery: the restarted server sends it again with the same webhook-id', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const rx = await receiver(['hang', 200]);
    cleanups.push(rx.close);
    const srv = await startServe(s.path, ['--allow-private-webhooks']);
    await api(srv, key, 'POST', '/webhooks', { url: rx.url, events: ['tag.created'] });
    await api(srv, key, 'POST', '/tags', { workspace_id: WS, name: 'Killed', type: 'income' });
    await until(() => rx.received.length === 1, 5000, 'the first attempt');
    await srv.stop('SIGKILL');
    expect(deliveries(s.path)[0]!.deliveries[0]).toMatchObject({ status: 'pending', attempts: [] });
    const again = await startServe(s.path, ['--allow-private-webhooks']);
    cleanups.push(() => again.stop());
    await until(() => rx.received.length === 2, 10_000, 'the resend');
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
    await until(() => deliveries(s.path)[0]!.deliveries[0]!.status === 'succeeded', 5000, 'success');
  });
});
