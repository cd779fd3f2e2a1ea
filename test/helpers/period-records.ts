/**
 * Import records for the closed-period tests (docs/periods.md): an inflow of 1 ETH worth 3,000
 * from an outside address to wallet address A, numbered `n` (its hash) and dated `iso`; tests
 * pass what they vary. `idOf` is the id the import gives the record's row in a wallet.
 */
import { transactionId } from '../../src/core/ids.js';
import type { ImportRecord } from '../../src/importers/types.js';

export const A = `0x${'a'.repeat(40)}`;
export const B = `0x${'b'.repeat(40)}`;
export const STRANGER = `0x${'d'.repeat(40)}`;
export const ETH = { symbol: 'ETH', address: null, decimals: 18 };
export const at = (iso: string) => Date.parse(iso) / 1000;

export function record(n: number, iso: string, over: Partial<ImportRecord> = {}): ImportRecord {
  return {
    line: n,
    tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
    from_address: STRANGER,
    to_address: A,
    token: ETH,
    amount: '1',
    fiat_value: '3000',
    direction: 'inflow',
    type: 'transfer',
    timestamp: at(iso),
    notes: null,
    ...over,
  };
}

export const idOf = (wallet: string, r: ImportRecord) => transactionId(wallet, r.tx_hash, `t:${r.token.address ?? r.token.symbol}:${r.direction}:0`);
