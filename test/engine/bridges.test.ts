/**
 * Proposed bridges and exchange transfers on a real ledger: the walk of the covering index with
 * its float shortcuts and fees read on demand (engine/bridges.ts) proposes exactly what the rule
 * written out plainly (exact sums, every earlier outflow, every fee read) proposes from every row in
 * time order, on ledgers made to sit on the rule's edges (the 1 % tolerance, the hour and the day,
 * equal timestamps, symbols that only JavaScript's upper case makes one asset, network fees that
 * make or break a fit, fee rows at another time than their outflow, rejected pairs).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tempEngine } from '../helpers/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { createWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { addRejection, legsInTimeOrder, rejections, withNetworkFees } from '../../src/store/transfers.js';
import { bridgeCandidates, BRIDGE_WINDOW_SECONDS, EXCHANGE_WINDOW_SECONDS, movesValue, type Leg } from '../../src/accounting/transfers.js';
import { proposedBridges } from '../../src/engine/bridges.js';
import { amountKey, fromBaseUnits, scaleOf, toBaseUnits } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';

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
  // An outflow's network fee (its `fee` row: the same wallet, hash and coin), as a permille of the
  // ledger's amount: 0.5 % and 1 % move a fit across the edge; sometimes booked at another time.
  networkFee: fc.constantFrom(0, 0, 5, 10, 20),
  feeLater: fc.boolean(),
});
const ledger = fc.record({
  base: fc.constantFrom(10n ** 20n, 123_456_789n, 10n ** 6n, 7n),
  scale: fc.constantFrom(0, 6, 18),
  rows: fc.array(row, { minLength: 8, maxLength: 40 }),
});

function proposalsOf(pairs: { out: { id: string }; in: { id: string } }[]): string[][] {
  return pairs.map((p) => [p.out.id, p.in.id]);
}

/** Exact: sent − received ≤ 1 % of sent (+ the fee for a move to or from an exchange), received ≤ sent. */
function fits(sent: string, received: string, fee: string): boolean {
  const scale = Math.max(scaleOf(sent), scaleOf(received), scaleOf(fee));
  const [s, r, f] = [sent, received, fee].map((a) => toBaseUnits(a, scale)) as [bigint, bigint, bigint];
  return r <= s && r * 100n >= s * 99n - f * 100n;
}

/**
 * The rule as docs/accounting.md states it, with no window kept and no shortcut: each inflow in
 * time order takes, of every earlier free outflow of its asset not yet taken and not rejected
 * with it, the one that fits (a bridge: another chain, within the hour, 1 %; to or from an
 * exchange account: another wallet, within the day, 1 % plus the outflow's fee), the exact
 * amount first, then the latest, then the lowest id.
 */
function plainRule(rows: Leg[], rejected: (key: string) => boolean): string[][] {
  const legs = rows.filter((l) => l.transfer === null && movesValue(l));
  const taken = new Set<string>();
  const pairs: string[][] = [];
  legs.forEach((into, i) => {
    if (into.direction !== 'inflow') return;
    const fitting = legs.slice(0, i).filter((out) => {
      if (out.direction !== 'outflow' || taken.has(out.id) || out.token_symbol.toUpperCase() !== into.token_symbol.toUpperCase()) return false;
      if (rejected(`${out.id}\0${into.id}`)) return false;
      const viaExchange = out.chain === 'exchange' || into.chain === 'exchange';
      if (viaExchange) return out.wallet_id !== into.wallet_id && into.ts - out.ts <= EXCHANGE_WINDOW_SECONDS && fits(out.amount, into.amount, out.fee ?? '0');
      return out.chain !== into.chain && into.ts - out.ts <= BRIDGE_WINDOW_SECONDS && fits(out.amount, into.amount, '0');
    });
    const rank = (l: Leg): [number, number, string] => [l.amount === into.amount ? 1 : 0, l.ts, l.id];
    const best = fitting.reduce<Leg | undefined>((b, l) => {
      if (!b) return l;
      const [x, y] = [rank(l), rank(b)];
      return x[0] !== y[0] ? (x[0] > y[0] ? l : b) : x[1] !== y[1] ? (x[1] > y[1] ? l : b) : x[2] < y[2] ? l : b;
    }, undefined);
    if (!best) return;
    taken.add(best.id);
    pairs.push([best.id, into.id]);
  });
  return pairs;
}

describe('proposed bridges', () => {
  it('the walk of the covering index proposes what the plain rule proposes over every free row', () => {
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
        const txs: NewTransaction[] = rows.flatMap((r, i) => {
          const units = (base * BigInt(r.permille)) / 1000n + r.nudge;
          const amount = fromBaseUnits(units < 0n ? 0n : units, scale);
          const hash = `0x${String(run).padStart(8, '0')}${String(i).padStart(56, '0')}`;
          const row: NewTransaction = {
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
          if (r.inflow || r.fee || r.networkFee === 0) return [row];
          // Its fee row, found as the import names it (engine/imports.ts): by wallet, hash and key.
          const feeKey = `fee:${r.symbol}:outflow:0`;
          const feeAmount = fromBaseUnits((base * BigInt(r.networkFee)) / 1000n, scale);
          const fee = {
            ...row,
            id: transactionId(row.wallet_id, hash, feeKey),
            transfer_key: feeKey,
            type: 'fee',
            amount: feeAmount,
            amount_key: amountKey(feeAmount),
          };
          return [row, { ...fee, ts: r.feeLater ? T0 + 2 * EXCHANGE_WINDOW_SECONDS : row.ts }];
        });
        engine.write(() => {
          insertTransactions(engine.db, txs, 0);
          for (const [a, b] of rejects) addRejection(engine.db, ws, txs[a % txs.length]!.id, txs[b % txs.length]!.id);
        });
        const rejected = rejections(engine.db, ws);
        for (const range of [{}, { startTs: T0 + 600, endTs: T0 + BRIDGE_WINDOW_SECONDS + 1 }]) {
          const rowsInRange = withNetworkFees(engine.db, [...legsInTimeOrder(engine.db, ws, range)]);
          const proposed = proposalsOf(proposedBridges(engine.db, ws, range));
          expect(proposed).toEqual(plainRule(rowsInRange, (key) => rejected.has(key)));
          expect(proposalsOf([...bridgeCandidates(rowsInRange, (key) => rejected.has(key))])).toEqual(proposed);
        }
      }),
      { numRuns: 200 },
    );
    engine.close();
  });
});
