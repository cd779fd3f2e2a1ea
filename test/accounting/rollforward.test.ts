/**
 * The roll-forward on random ledgers (three wallets on two chains, ETH and USDC pooled across
 * them by the asset table, purchases with and without values, income, sales beyond the lots, own
 * transfers that may arrive short or early): for every wallet and asset, in every scope (per wallet, universal, by year across the 2025 transition) and every
 * method and from any period start, closing = opening + acquired + income − disposed + transfer
 * in − transfer out, in quantity and cost; the balance is the sum of the rows; the closing lots
 * are the ledger's open lots, lot by lot (its public openLots()).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Chain, Token } from '../../src/core/types.js';
import { fromBaseUnits } from '../../src/core/money.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { quantityOf, upscale } from '../../src/accounting/quantity.js';
import { ROLL_FLOWS, RollForward } from '../../src/accounting/rollforward.js';
import { ETH, SALARY, USDC, USDC_ARB, buy, linked, sell, type Row } from './helpers.js';

const WALLETS: { id: string; chain: Chain }[] = [
  { id: 'wal_a', chain: 'ethereum' },
  { id: 'wal_b', chain: 'ethereum' },
  { id: 'wal_c', chain: 'arbitrum' },
];
const tokenOf = (asset: number, chain: Chain): Token => (asset === 0 ? ETH : chain === 'arbitrum' ? USDC_ARB : USDC);
const amount = (units: bigint) => fromBaseUnits(units, 2);
const value = (cents: bigint | null) => (cents === null ? null : Number(fromBaseUnits(cents, 2)));
const u18 = (q: { units: bigint; scale: number }) => upscale(q.units, q.scale, 18);

const event = fc.record({
  kind: fc.constantFrom('buy' as const, 'sell' as const, 'move' as const),
  a: fc.nat(2),
  b: fc.nat(2),
  asset: fc.nat(1),
  units: fc.bigInt({ min: 1n, max: 10_000n }),
  short: fc.bigInt({ min: -50n, max: 100n }),
  cents: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: null }),
  flag: fc.boolean(),
});
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never;

/** From 2024-12-12, 40 days cross the transition (2025-01-01) of the default scope. */
const BASE = Date.UTC(2024, 11, 12);

function rowsOf(events: Event[]): Row[] {
  return events.flatMap((e, i) => {
    const at = new Date(BASE + i * 86_400_000).toISOString().slice(0, 10);
    const w = WALLETS[e.a]!;
    if (e.kind === 'move') {
      const to = WALLETS[e.b === e.a ? (e.b + 1) % 3 : e.b]!;
      const received = e.units - e.short > 0n ? e.units - e.short : e.units;
      const out = sell({
        at,
        wallet: w.id,
        chain: w.chain,
        token: tokenOf(e.asset, w.chain),
        amount: amount(e.units),
        value: value(e.cents),
        transfer: `trf_${i}`,
      });
      const into = buy({
        at,
        wallet: to.id,
        chain: to.chain,
        token: tokenOf(e.asset, to.chain),
        amount: amount(received),
        value: value(e.cents),
        transfer: `trf_${i}`,
      });
      // `flag`: the receiving leg first (clocks of two chains).
      return e.flag ? [into, out] : [out, into];
    }
    const r = { at, wallet: w.id, chain: w.chain, token: tokenOf(e.asset, w.chain), amount: amount(e.units), value: value(e.cents) };
    return [e.kind === 'buy' ? buy({ ...r, tags: e.flag ? [SALARY] : [] }) : sell(r)];
  });
}

describe('roll-forward properties', () => {
  it('closing = opening + flows for every wallet and asset; the balance is the rows’ sum; closing is the open lots', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 40 }),
        fc.constantFrom('fifo' as const, 'lifo' as const, 'hifo' as const),
        fc.constantFrom('wallet' as const, 'universal' as const, undefined),
        fc.nat(40),
        (events, method, scope, startDay) => {
          // Each leg knowing its other (as the engine reads them): the ledger moves the lots at the first.
          const rows = linked(rowsOf(events));
          const assets = new AssetTable();
          const start = new Date(BASE + startDay * 86_400_000).toISOString().slice(0, 10);
          // No scope: by year, the pool split at the transition by the computed allocation.
          const roll = new RollForward(scope === undefined ? { method, assets } : { method, scope, assets }, start);
          for (const tx of rows) roll.add(tx);
          const out = roll.rows();
          const lots = roll.ledger.openLots();
          for (const r of out) {
            const f = r.flows;
            const sign = { opening: 1n, acquired: 1n, income: 1n, disposed: -1n, transfer_in: 1n, transfer_out: -1n, closing: 0n } as const;
            let q = 0n;
            let c = 0n;
            for (const k of ROLL_FLOWS) {
              q += sign[k] * u18(f[k].quantity);
              c += sign[k] * f[k].cost;
            }
            expect([q, c]).toEqual([u18(f.closing.quantity), f.closing.cost]);
            // The balances are in the closing's scope: a pool split at the transition holds none.
            const split = r.scope === '*' && roll.ledger.transition !== null;
            const mine = split ? [] : rows.filter((t) => (r.scope === '*' || t.wallet_id === r.scope) && assets.assetOf(t.chain, t.token).key === r.asset.key);
            const sum = mine.reduce((s, t) => s + (t.direction === 'inflow' ? 1n : -1n) * u18(quantityOf(t.amount, t.token.decimals)), 0n);
            expect(u18(r.balance)).toBe(sum);
            expect(u18(r.difference)).toBe(sum - u18(f.closing.quantity));
            const held = lots.filter((l) => l.scope === r.scope && l.asset.key === r.asset.key);
            expect([held.reduce((s, l) => s + u18(l.quantity), 0n), held.reduce((s, l) => s + l.costCents, 0n)]).toEqual([
              u18(f.closing.quantity),
              f.closing.cost,
            ]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
