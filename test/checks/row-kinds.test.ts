/**
 * The row kinds name the oldest rows as examples whether there are few findings (read with the
 * count's scan) or many (read walking the time index from the start, checks/kinds.ts MANY), on
 * rows inserted out of time order.
 */
import { describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { untagged } from '../../src/checks/kinds.js';
import { amountKey } from '../../src/core/money.js';

const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;

describe('row kinds', () => {
  for (const size of [7, 1500]) {
    it(`${size} untagged rows inserted newest first: the count, and the five oldest by time then id`, () => {
      const { engine, ws } = tempEngine();
      const wallet = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'a'.repeat(40)}`, chain: 'ethereum', label: 'A' }).id);
      // Newest first, two rows per timestamp, so the table's order is not time order.
      const rows: NewTransaction[] = Array.from({ length: size }, (_, i) => {
        const hash = `0x${i.toString(16).padStart(64, '0')}`;
        return {
          id: `tx_${String(size - i).padStart(6, '0')}`, workspace_id: ws, wallet_id: wallet, chain: 'ethereum', tx_hash: hash, transfer_key: '0',
          from_address: `0x${'b'.repeat(40)}`, to_address: `0x${'a'.repeat(40)}`, token_symbol: 'ETH', token_address: null, token_decimals: 18,
          amount: '1', amount_key: amountKey('1'), fiat_cents: 100, direction: 'inflow', type: 'transfer', ts: T0 + Math.floor((size - i) / 2) * 60, notes: null,
        };
      });
      engine.write(() => insertTransactions(engine.db, rows, 0));
      const oldest = [...rows].sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1)).slice(0, 5).map((r) => r.id);
      const result = untagged(engine.db, ws, {});
      expect(result.count).toBe(size);
      expect(result.examples.map((e) => e.transaction_id)).toEqual(oldest);
      engine.close();
    });
  }
});
