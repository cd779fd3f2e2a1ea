/**
 * Refusing private and loopback webhook targets (CONTRACT §8), so a subscriber cannot make the
 * server call into its own network (SSRF). Literal hosts are checked when a subscription is made
 * through the API; every delivery checks the addresses its host name resolves to, at connect
 * time, so a name that later resolves to a private address is caught as well.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { TxaError } from '../core/errors.js';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

/** A literal private host (IP or `localhost`) in a URL given to the API, as INVALID_FIELD. */
export function assertPublicUrl(url: string, field: string): void {
  if (!URL.canParse(url)) return; // the schema reports malformed URLs
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    throw new TxaError('INVALID_FIELD', `${field} must not point at a private or loopback address (start serve with --allow-private-webhooks for local testing)`, { field });
  }
}

/** A `lookup` for undici's connector that refuses names resolving to private addresses. */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(Object.assign(new Error(`refused: ${hostname} resolves to the private address ${bad.address}`), { code: 'EPRIVATE' }), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** The literal-IP check at delivery time (a literal IP never goes through `lookup`). */
export function refusedLiteral(url: string): string | null {
  const host = hostOf(url);
  return isIP(host) && isPrivateAddress(host) ? `refused: ${host} is a private address` : null;
}
