/**
 * The private-address guard of calls made for API users (net/): which addresses count as private,
 * and the guarded client against a real receiver on 127.0.0.1 reached through names, literal
 * forms and redirects. Each refusal is paired with the same call without the guard reaching the
 * receiver, so the rig itself is shown to work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { isPrivateAddress } from '../../src/net/address-policy.js';
import type { Resolver } from '../../src/net/outbound.js';
import { deliverWebhook } from '../../src/exporters/deliver-webhook.js';
import { assertPublicUrl } from '../../src/server/url-guard.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A receiver on 127.0.0.1 that counts the requests it gets and answers `status` (with `location` when given). */
async function receiver(status = 200, location?: string): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume().on('end', () => res.writeHead(status, location ? { location } : {}).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** Answers every name with `addresses`, as a DNS server under someone else's control might. */
const resolveTo =
  (...addresses: string[]): Resolver =>
  (_host, _opts, cb) =>
    cb(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

const call = (url: string, refusePrivate: boolean, resolve?: Resolver) =>
  deliverWebhook({ url, secret: 'whsec_dGVzdA==', messageId: 'evt_1', payload: '{}', retryDelaysMs: [], refusePrivate, resolve, timeoutMs: 5000 });

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.1.2',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '100::1',
    '2001::1',
    '2001:db8::1',
    '3fff::1',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    'example.com',
  ])('%s is not private', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('assertPublicUrl (creation time: what the URL itself shows)', () => {
  it.each([
    'http://127.0.0.1/h',
    'http://127.1/h',
    'http://2130706433/h',
    'http://0x7f.0.0.1/h',
    'http://0.0.0.0/h',
    'http://localhost/h',
    'http://LOCALHOST./h',
    'http://api.localhost/h',
    'http://[::1]/h',
    'http://[::127.0.0.1]/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://[64:ff9b::127.0.0.1]/h',
    'http://[fd00::1]/h',
    'http://[fe80::1]/h',
    'http://100.64.1.1/h',
    'http://169.254.169.254/latest',
  ])('refuses %s', (url) => {
    expect(() => assertPublicUrl(url, 'delivery.webhook_url')).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 'delivery.webhook_url' }));
  });

  it('lets names and public addresses through (names are checked at connect time)', () => {
    for (const url of ['https://hooks.example.com/x', 'http://8.8.8.8/x', 'http://[2606:4700::1]/x']) expect(() => assertPublicUrl(url, 'url')).not.toThrow();
  });
});

describe('the guarded client', () => {
  it('refuses a name that resolves to loopback; without the guard the same call arrives', async () => {
    const rx = await receiver();
    const url = `http://hooks.example.com:${rx.port}/h`;
    const refused = await call(url, true, resolveTo('127.0.0.1'));
    expect(refused).toBe(
      `${url} was not called: refused: hooks.example.com resolves to the private address 127.0.0.1; serve refuses private and loopback targets unless started with --allow-private-webhooks`,
    );
    expect(rx.hits()).toBe(0);
    expect(await call(url.replace('hooks.example.com', '127.0.0.1'), false)).toBeNull();
    expect(rx.hits()).toBe(1);
  });

  it('refuses a name with any private answer, so a rebinding resolver cannot mix one in', async () => {
    const rx = await receiver();
    const url = `http://rebind.example:${rx.port}/h`;
    expect(await call(url, true, resolveTo('93.184.216.34', '127.0.0.1'))).toMatch(
      /was not called: refused: rebind\.example resolves to the private address 127\.0\.0\.1/,
    );
    expect(await call(url, true, resolveTo('::ffff:127.0.0.1'))).toMatch(/private address ::ffff:127\.0\.0\.1/);
    expect(rx.hits()).toBe(0);
  });

  it('resolves the name again for every call, where the socket is opened (no answer is kept from creation time)', async () => {
    const rx = await receiver();
    let lookups = 0;
    const counting: Resolver = (host, opts, cb) => {
      lookups++;
      resolveTo('127.0.0.1')(host, opts, cb);
    };
    for (let i = 1; i <= 2; i++) {
      expect(await call(`http://flip.example:${rx.port}/h`, true, counting)).toMatch(/private address 127\.0\.0\.1/);
      expect(lookups).toBe(i);
    }
    expect(rx.hits()).toBe(0);
  });

  it.each(['127.0.0.1', '127.1', '0x7f.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])('refuses the literal %s before connecting', async (host) => {
    const rx = await receiver();
    const url = `http://${host}:${rx.port}/h`;
    expect(await call(url, true)).toMatch(/was not called: refused: .* is a private address/);
    expect(rx.hits()).toBe(0);
    expect(await call(url, false)).toBeNull();
    expect(rx.hits()).toBe(1);
  });

  it.each(['[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[::]', '0.0.0.0'])('refuses the literal %s (no connection attempt)', async (host) => {
    expect(await call(`http://${host}:9/h`, true)).toMatch(/was not called: refused: .* is a private address/);
  });

  it('never follows a redirect: a 3xx is a failed attempt and its target gets nothing', async () => {
    const inside = await receiver();
    const outside = await receiver(307, `http://127.0.0.1:${inside.port}/internal`);
    const failure = await call(`http://127.0.0.1:${outside.port}/h`, false);
    expect(failure).toBe(`http://127.0.0.1:${outside.port}/h failed after 1 try; the last got HTTP 307`);
    expect([outside.hits(), inside.hits()]).toEqual([1, 0]);
  });
});
