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
import { CHECK_KINDS, KIND_QUERIES, untagged, wholeLedgerCounts } from '../../src/checks/kinds.js';
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
          id: `tx_${String(size - i).padStart(6, '0')}`,
          workspace_id: ws,
          wallet_id: wallet,
          chain: 'ethereum',
          tx_hash: hash,
          transfer_key: '0',
          from_address: `0x${'b'.repeat(40)}`,
          to_address: `0x${'a'.repeat(40)}`,
          token_symbol: 'ETH',
          token_address: null,
          token_decimals: 18,
          amount: '1',
          amount_key: amountKey('1'),
          fiat_cents: 100,
          direction: 'inflow',
          type: 'transfer',
          ts: T0 + Math.floor((size - i) / 2) * 60,
          notes: null,
        };
      });
      engine.write(() => insertTransactions(engine.db, rows, 0));
      const oldest = [...rows]
        .sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1))
        .slice(0, 5)
        .map((r) => r.id);
      const result = untagged(engine.db, ws, {});
      expect(result.count).toBe(size);
      expect(result.examples.map((e) => e.transaction_id)).toEqual(oldest);
      engine.close();
    });
  }

  it("one scan's counts of the row kinds equal each kind's own count: priced or not, own counterparties by address in any case, fees, zero amounts, spam", () => {
    const { engine, ws } = tempEngine();
    const addresses = [`0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`, `0x${'c'.repeat(40)}`];
    const wallets = engine.write(() =>
      addresses.map((address, i) => insertNewWallet(engine, ws, { address, chain: i === 2 ? 'polygon' : 'ethereum', label: `W${i}` }).id),
    );
    // No asset on two chains, so no bridge: unmatched_transfer is the by-address count alone.
    const others = [...addresses, `0x${'B'.repeat(40)}`, `0x${'d'.repeat(40)}`];
    const rows: NewTransaction[] = Array.from({ length: 240 }, (_, i) => {
      const w = i % 3;
      const amount = i % 11 === 0 ? '0' : String(1 + (i % 7));
      return {
        id: `tx_m${String(i).padStart(4, '0')}`,
        workspace_id: ws,
        wallet_id: wallets[w]!,
        chain: w === 2 ? 'polygon' : 'ethereum',
        tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
        transfer_key: '0',
        from_address: others[i % 5]!,
        to_address: others[(i >> 1) % 5]!,
        token_symbol: w === 2 ? 'POL' : 'ETH',
        token_address: null,
        token_decimals: 18,
        amount,
        amount_key: amountKey(amount),
        fiat_cents: i % 4 === 0 ? null : 100,
        direction: i % 2 ? 'inflow' : 'outflow',
        type: ['transfer', 'fee', 'approval', 'transfer'][i % 4]!,
        ts: T0 + i * 60,
        notes: null,
        spam: i % 13 === 0 ? 1 : 0,
      } as NewTransaction;
    });
    engine.write(() => insertTransactions(engine.db, rows, 0));
    const known = wholeLedgerCounts(engine.db, ws, CHECK_KINDS);
    expect(Object.keys(known).sort()).toEqual(['unmatched_transfer', 'unpriced', 'untagged']);
    for (const kind of ['untagged', 'unpriced', 'unmatched_transfer'] as const) {
      const own = KIND_QUERIES[kind](engine.db, ws, {});
      expect(own.count).toBeGreaterThan(0);
      expect(known[kind]).toBe(own.count);
      expect(KIND_QUERIES[kind](engine.db, ws, {}, known[kind])).toEqual(own);
    }
    expect(wholeLedgerCounts(engine.db, ws, ['unpriced'])).toEqual({});
    engine.close();
  });
});
