/**
 * Proposed bridges on a real ledger: SQLite's walk with the float pre-check (engine/bridges.ts)
 * proposes exactly what the exact rule proposes from every free row in time order, on ledgers
 * made to sit on the rule's edges (the 1 % tolerance, the hour, equal timestamps, symbols that
 * only JavaScript's upper case makes one asset, rejected pairs).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tempEngine } from '../helpers/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { createWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { addRejection, legsInTimeOrder, rejections, withNetworkFees } from '../../src/store/transfers.js';
import { bridgeCandidates, BRIDGE_WINDOW_SECONDS, EXCHANGE_WINDOW_SECONDS } from '../../src/accounting/transfers.js';
import { proposedBridges } from '../../src/engine/bridges.js';
import { amountKey, fromBaseUnits } from '../../src/core/money.js';

const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;
/** The last is an exchange account's (docs/storage.md "Exchange wallets"), whose proposals have a day's window and the network fee. */
const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'exchange'] as const;
const SYMBOLS = ['USDC', 'USDC', 'usdc', 'ETH', 'ß', 'SS'];

const row = fc.record({
  chain: fc.integer({ min: 0, max: 3 }),
  inflow: fc.boolean(),
  symbol: fc.constantFrom(...SYMBOLS),
  // Few distinct times, some an hour apart to the second, so ties and the window's edge are common.
  ts: fc.constantFrom(
    0,
    1,
    600,
    1800,
    BRIDGE_WINDOW_SECONDS,
    BRIDGE_WINDOW_SECONDS + 1,
    2 * BRIDGE_WINDOW_SECONDS,
    EXCHANGE_WINDOW_SECONDS,
    EXCHANGE_WINDOW_SECONDS + 1,
  ),
  // The ledger's one amount, shaved by 0–1.5 % and by one unit across the 1 % edge.
  permille: fc.constantFrom(1000, 999, 995, 990, 989, 985),
  nudge: fc.constantFrom(-1n, 0n, 1n),
  fee: fc.constantFrom(false, false, false, true),
});
const ledger = fc.record({
  base: fc.constantFrom(10n ** 20n, 123_456_789n, 10n ** 6n, 7n),
  scale: fc.constantFrom(0, 6, 18),
  rows: fc.array(row, { minLength: 8, maxLength: 40 }),
});

function proposalsOf(pairs: { out: { id: string }; in: { id: string } }[]): string[][] {
  return pairs.map((p) => [p.out.id, p.in.id]);
}

describe('proposed bridges', () => {
  it('the pre-checked walk proposes the same pairs as the exact rule over every free row', () => {
    const { engine } = tempEngine();
    let run = 0;
    fc.assert(
      fc.property(ledger, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }), ({ base, scale, rows }, rejects) => {
        run++;
        const ws = createWorkspace(engine, { name: `P${run}`, tier: 'pro' }).id;
        const wallets = engine.write(() =>
          CHAINS.slice(0, 3).map((chain, i) => insertNewWallet(engine, ws, { address: `0x${String(i + 1).repeat(40)}`, chain, label: chain }).id),
        );
        wallets.push(createWallet(engine, ws, { kind: 'exchange', exchange: 'kraken' }).id);
        const txs: NewTransaction[] = rows.map((r, i) => {
          const units = (base * BigInt(r.permille)) / 1000n + r.nudge;
          const amount = fromBaseUnits(units < 0n ? 0n : units, scale);
          const hash = `0x${String(run).padStart(8, '0')}${String(i).padStart(56, '0')}`;
          return {
            id: `tx_${run}_${i}`,
            workspace_id: ws,
            wallet_id: wallets[r.chain]!,
            chain: CHAINS[r.chain]!,
            tx_hash: hash,
            transfer_key: '0',
            from_address: `0x${'e'.repeat(40)}`,
            to_address: `0x${'f'.repeat(40)}`,
            token_symbol: r.symbol,
            token_address: null,
            token_decimals: 18,
            amount,
            amount_key: amountKey(amount),
            fiat_cents: null,
            direction: r.inflow ? 'inflow' : 'outflow',
            type: r.fee ? 'fee' : 'transfer',
            ts: T0 + r.ts,
            notes: null,
          };
        });
        engine.write(() => {
          insertTransactions(engine.db, txs, 0);
          for (const [a, b] of rejects) addRejection(engine.db, ws, txs[a % txs.length]!.id, txs[b % txs.length]!.id);
        });
        const rejected = rejections(engine.db, ws);
        for (const range of [{}, { startTs: T0 + 600, endTs: T0 + BRIDGE_WINDOW_SECONDS + 1 }]) {
          const exact = [...bridgeCandidates(withNetworkFees(engine.db, [...legsInTimeOrder(engine.db, ws, range)]), (key) => rejected.has(key))];
          expect(proposalsOf(proposedBridges(engine.db, ws, range))).toEqual(proposalsOf(exact));
        }
      }),
      { numRuns: 200 },
    );
    engine.close();
  });
});
