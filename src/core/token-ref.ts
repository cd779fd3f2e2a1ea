/** A token as the commands name it, `CHAIN:ADDRESS` (docs/sync.md, "Spam"), read before any ledger is opened. */
import { TxaError } from './errors.js';
import { CHAINS, type Chain } from './types.js';

/** A token of a chain, as the commands name it: `chain:address`. */
export interface TokenRef {
  chain: Chain;
  address: string;
}

/** `CHAIN:ADDRESS` → the token, or INVALID_FIELD naming the part that is wrong. */
export function parseTokenRef(text: string): TokenRef {
  const m = /^([^:]*):(.*)$/.exec(text.trim());
  if (!m) {
    throw new TxaError('INVALID_FIELD', `token must be CHAIN:ADDRESS (e.g. ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7), got '${text}'`, {
      field: 'token',
    });
  }
  const chain = m[1]!.toLowerCase();
  if (!(CHAINS as readonly string[]).includes(chain)) {
    throw new TxaError('INVALID_FIELD', `chain must be one of ${CHAINS.join(', ')}, got '${m[1]}'`, { field: 'chain' });
  }
  const address = m[2]!.toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(address)) {
    throw new TxaError('INVALID_FIELD', `address must be a token contract: 0x and 40 hex digits, got '${m[2]}'`, { field: 'address' });
  }
  return { chain: chain as Chain, address };
}
