/**
 * The HTTP client of calls `txa serve` makes for its users (webhook deliveries, an export's
 * `export.completed` call). Unless private targets are allowed, the address is checked where the
 * socket is opened: a literal IP before connecting, a name on every address it resolves to, in
 * the lookup the socket itself uses, so a name that resolved to a public address when it was
 * given (or on the previous call) and now resolves inside (DNS rebinding) is refused too. No
 * redirect is followed (undici's `request` has no redirect handling without an interceptor), so a
 * public receiver cannot bounce the call inside either.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPrivateAddress } from './address-policy.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup`'s shape, with `all: true`: what the guard resolves names with. */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const REFUSED_CODE = 'TXA_PRIVATE_TARGET';

function refusal(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${message}; serve refuses private and loopback targets unless started with --allow-private-webhooks`), {
    code: REFUSED_CODE,
  });
}

/** A socket `lookup` that fails when any address of the name is private (one bad answer taints the name). */
function publicOnlyLookup(resolve: Resolver = dnsLookup as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(refusal(`${hostname} resolves to the private address ${bad.address}`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface OutboundOptions {
  allowPrivate: boolean;
  /** Connect, headers and body timeout. */
  timeoutMs: number;
  /** How names are resolved; tests pass one to point a name at loopback. */
  resolve?: Resolver;
}

/** An undici Agent for calls made for users, guarded unless `allowPrivate`. */
export function outboundAgent(opts: OutboundOptions): Agent {
  const timeouts = { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs, keepAliveTimeout: 10_000 };
  if (opts.allowPrivate) return new Agent({ connect: { timeout: opts.timeoutMs }, ...timeouts });
  const connector = buildConnector({ timeout: opts.timeoutMs, lookup: publicOnlyLookup(opts.resolve) });
  return new Agent({
    ...timeouts,
    connect: (options, callback) => {
      // A literal IP never goes through `lookup`.
      if (isIP(options.hostname) && isPrivateAddress(options.hostname)) return callback(refusal(`${options.hostname} is a private address`), null);
      connector(options, callback);
    },
  });
}
