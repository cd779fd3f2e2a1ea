/**
 * `unmatched_transfer` counts a row once when it is both an own transfer by address (its other
 * side is another wallet of the workspace on its chain) and a leg of a proposed bridge: the
 * address test on the bridge legs in hand must agree with the SQL join, a checksummed
 * (upper-case) address included.
 */
import { describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { unmatchedTransfers } from '../../src/checks/kinds.js';
import { amountKey } from '../../src/core/money.js';

const T0 = Date.parse('2024-05-01T10:00:00Z') / 1000;
const C_ADDRESS = `0x${'c'.repeat(40)}`;

function row(ws: string, wallet: string, chain: string, n: number, direction: 'inflow' | 'outflow', to: string, from: string, ts: number): NewTransaction {
  const hash = `0x${n.toString(16).padStart(64, '0')}`;
  return {
    id: `tx_${hash.slice(-20)}`,
    workspace_id: ws,
    wallet_id: wallet,
    chain,
    tx_hash: hash,
    transfer_key: '0',
    from_address: from,
    to_address: to,
    token_symbol: 'USDC',
    token_address: null,
    token_decimals: 6,
    amount: '250',
    amount_key: amountKey('250'),
    fiat_cents: 25_000,
    direction,
    type: 'transfer',
    ts,
    notes: null,
  };
}

describe('unmatched_transfer', () => {
  for (const [name, to] of [
    ['lower-case', C_ADDRESS],
    ['checksummed', `0x${'C'.repeat(40)}`],
  ] as const) {
    it(`a bridge outflow sent to another own wallet's ${name} address on its chain is one finding, not two`, () => {
      const { engine, ws } = tempEngine();
      const [a, b] = engine.write(() => [
        insertNewWallet(engine, ws, { address: `0x${'a'.repeat(40)}`, chain: 'ethereum', label: 'A' }).id,
        insertNewWallet(engine, ws, { address: `0x${'b'.repeat(40)}`, chain: 'polygon', label: 'B' }).id,
        insertNewWallet(engine, ws, { address: C_ADDRESS, chain: 'ethereum', label: 'C' }).id,
      ]);
      engine.write(() =>
        insertTransactions(
          engine.db,
          [
            row(ws, a!, 'ethereum', 1, 'outflow', to, `0x${'a'.repeat(40)}`, T0),
            row(ws, b!, 'polygon', 2, 'inflow', `0x${'b'.repeat(40)}`, `0x${'9'.repeat(40)}`, T0 + 600),
          ],
          0,
        ),
      );
      const result = unmatchedTransfers(engine.db, ws, {});
      expect(result.count).toBe(2);
      expect(result.examples.map((e) => e.wallet_label)).toEqual(['A', 'B']);
      engine.close();
    });
  }
});
