/**
 * Refusing private and loopback webhook targets when they are given to the API (docs/server.md "Outgoing calls (SSRF guard)"), so
 * a subscriber cannot make the server call into its own network (SSRF). Only what the URL itself
 * shows is checked here (literal addresses, `localhost`); names are checked on every call, where
 * the socket is opened (net/outbound.ts), since what a name resolves to can change.
 */
import { TxaError } from '../core/errors.js';
import { isPrivateAddress } from '../net/address-policy.js';

/** A literal private host (IP or `localhost`) in a URL given to the API, as INVALID_FIELD. */
export function assertPublicUrl(url: string, field: string): void {
  if (!URL.canParse(url)) return; // the schema reports malformed URLs
  // WHATWG parsing normalises `127.1`, `0x7f.0.0.1` and `[::ffff:127.0.0.1]`; a final dot is the same name.
  const host = new URL(url).hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    throw new TxaError(
      'INVALID_FIELD',
      `${field} must not point at a private or loopback address (start serve with --allow-private-webhooks for local testing)`,
      { field },
    );
  }
}
