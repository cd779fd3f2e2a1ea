/**
 * `transfers match --auto` over a whole ledger pairs an exchange row with the wallet row of its
 * network hash within a day either side (docs/accounting.md "Exchange accounts"), reading the rows
 * of every hash in one pass (engine/transfers.ts hashLegsNear): none with a row of the hash more
 * than a day away, which an import's matching (the wallet row's hash looked up among the exchange's
 * rows) links whatever the time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { createWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { autoMatch } from '../../src/engine/transfers.js';
import type { ImportRecord } from '../../src/importers/types.js';

const { engine, ws } = tempEngine('enterprise');
afterAll(() => engine.close());

const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;
const hash = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
const rec = (i: number, h: string, direction: 'inflow' | 'outflow', at: number, amount: string, exchange: boolean): ImportRecord => ({
  line: i,
  tx_hash: h,
  from_address: exchange ? '' : `0x${'e'.repeat(40)}`,
  to_address: exchange ? '' : `0x${'a'.repeat(40)}`,
  token: { symbol: 'ETH', address: null, decimals: 18 },
  amount,
  fiat_value: '100',
  direction,
  type: 'transfer',
  timestamp: at,
  notes: null,
});

describe('exchange transfers by hash over the whole ledger', () => {
  it('links the rows of a hash within a day, not one 25 hours away', () => {
    const chain = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'a'.repeat(40)}`, chain: 'ethereum', label: 'Main' }).id);
    const exchange = createWallet(engine, ws, { kind: 'exchange', exchange: 'coinbase', label: 'CB' }).id;
    // Withdrawals from the exchange, each arriving 10 minutes later; hash 3's wallet row is 25 hours later.
    importRecords(
      engine,
      ws,
      [1, 2, 3].map((i) => rec(i, hash(i), 'outflow', T0 + i * 3600, '1.01', true)),
      { walletId: exchange, format: 'exchange-csv' },
    );
    const arrivals = [1, 2].map((i) => rec(i, hash(i), 'inflow', T0 + i * 3600 + 600, '1', false));
    arrivals.push(rec(3, hash(3), 'inflow', T0 + 3 * 3600 + 25 * 3600, '1', false));
    importRecords(engine, ws, arrivals, { walletId: chain, format: 'json' });
    const legs = () =>
      engine.db.prepare('SELECT tx_hash, count(*) AS n FROM transactions WHERE transfer_id IS NOT NULL GROUP BY tx_hash ORDER BY tx_hash').all();
    expect(legs().length).toBe(3);
    engine.write(() => {
      engine.db.exec('UPDATE transactions SET transfer_id = NULL; DELETE FROM transfers');
      expect(autoMatch(engine, ws)).toBe(4);
    });
    expect(legs()).toEqual([
      { tx_hash: hash(1), n: 2 },
      { tx_hash: hash(2), n: 2 },
    ]);
  });
});
