/**
 * The free rows proposals read (store/transfers.ts freeLegs) come in chunks, each after the last
 * row of the one before: whatever the chunk size, the rows are the free ones of the range (not
 * spam, not fees, not zero, not legs of a transfer), each once, in (time, id) order, ties of one
 * second across a chunk's edge included.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { freeLegs, insertTransfer } from '../../src/store/transfers.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { amountKey } from '../../src/core/money.js';

const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;
const { engine, ws } = tempEngine();
afterAll(() => engine.close());
const wallet = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'a'.repeat(40)}`, chain: 'ethereum', label: 'A' }).id);

// 40 rows over 8 seconds (5 a second, so chunks end inside a second), ids not in insertion order;
// every 7th is spam, every 9th a fee, every 11th of amount 0, and rows 3 and 4 a transfer's legs.
const rows: NewTransaction[] = Array.from({ length: 40 }, (_, i) => {
  const amount = i % 11 === 0 ? '0' : String(i + 1);
  return {
    id: `tx_${String((i * 17) % 40).padStart(2, '0')}_${i}`,
    workspace_id: ws,
    wallet_id: wallet,
    chain: 'ethereum',
    tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
    transfer_key: '0',
    from_address: `0x${'a'.repeat(40)}`,
    to_address: `0x${'9'.repeat(40)}`,
    token_symbol: 'USDC',
    token_address: null,
    token_decimals: 6,
    amount,
    amount_key: amountKey(amount),
    fiat_cents: 100,
    direction: i % 2 === 0 ? 'inflow' : 'outflow',
    type: i % 9 === 0 ? 'fee' : 'transfer',
    ts: T0 + Math.floor(i / 5),
    notes: null,
    spam: i % 7 === 0 ? 1 : 0,
  };
});
engine.write(() => {
  insertTransactions(engine.db, rows, 0);
  insertTransfer(engine.db, { id: 'tr_1', workspace_id: ws, kind: 'internal', matched_by: 'user', created_at: '2024-06-01T00:00:00Z' }, [
    rows[3]!.id,
    rows[4]!.id,
  ]);
});

/** The free rows of [start, end), by the rule written out, in (time, id) order. */
function expected(start = -Infinity, end = Infinity): string[] {
  return rows
    .filter((r, i) => r.spam === 0 && r.type !== 'fee' && r.amount !== '0' && i !== 3 && i !== 4 && r.ts >= start && r.ts < end)
    .sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => r.id);
}

describe('freeLegs in chunks', () => {
  const read = (range: { startTs?: number; endTs?: number }, chunk?: number) =>
    engine.db.transaction(() => [...freeLegs(engine.db, ws, range, chunk)].map((r) => r.id))();

  it('the rule leaves rows out (the ledger tests something)', () => {
    expect(expected().length).toBeGreaterThan(20);
    expect(expected().length).toBeLessThan(40);
  });

  for (const chunk of [1, 2, 3, 4, 7, 1000, undefined]) {
    it(`chunks of ${chunk ?? 'the default size'}: every free row once, in order, whole ledger and a range`, () => {
      expect(read({}, chunk)).toEqual(expected());
      expect(read({ startTs: T0 + 2, endTs: T0 + 6 }, chunk)).toEqual(expected(T0 + 2, T0 + 6));
    });
  }
});
