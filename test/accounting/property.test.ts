/**
 * For random ledgers (three wallets on two chains, two assets that the table pools across them,
 * purchases with and without values, income, sales, own transfers that may arrive short):
 * lots neither appear nor vanish, and own transfers never change the total cost basis.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Chain, Token } from '../../src/core/types.js';
import { decimalToCents, fromBaseUnits } from '../../src/core/money.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { TaxLedger, type DisposalLine } from '../../src/accounting/tax-ledger.js';
import { quantityOf, upscale } from '../../src/accounting/quantity.js';
import { ETH, SALARY, USDC, USDC_ARB, buy, feed, sell, type Row } from './helpers.js';

const WALLETS: { id: string; chain: Chain }[] = [
  { id: 'wal_a', chain: 'ethereum' },
  { id: 'wal_b', chain: 'ethereum' },
  { id: 'wal_c', chain: 'arbitrum' },
];
const tokenOf = (asset: number, chain: Chain): Token => (asset === 0 ? ETH : chain === 'arbitrum' ? USDC_ARB : USDC);
/** Every amount has 2 decimals: units are hundredths. */
const amount = (units: bigint) => fromBaseUnits(units, 2);
const value = (cents: bigint | null) => (cents === null ? null : Number(fromBaseUnits(cents, 2)));

const event = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    wallet: fc.nat(2),
    asset: fc.nat(1),
    units: fc.bigInt({ min: 1n, max: 10_000n }),
    cents: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: null }),
    income: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('sell' as const),
    wallet: fc.nat(2),
    asset: fc.nat(1),
    units: fc.bigInt({ min: 1n, max: 10_000n }),
    cents: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: null }),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    from: fc.nat(2),
    to: fc.nat(2),
    asset: fc.nat(1),
    units: fc.bigInt({ min: 1n, max: 10_000n }),
    short: fc.bigInt({ min: 0n, max: 100n }),
    cents: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: null }),
  }),
);
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never;

/**
 * The rows of the events, a day apart; a move is two legs of one own transfer. `moves: 'feeless'`
 * drops every shortfall, `'none'` leaves the moves out (the other rows keep their days).
 */
function rowsOf(events: Event[], moves: 'as-given' | 'feeless' | 'none' = 'as-given'): Row[] {
  return events.flatMap((e, i) => {
    const at = new Date(Date.UTC(2023, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    if (e.kind === 'move') {
      if (moves === 'none') return [];
      const feeless = moves === 'feeless';
      const from = WALLETS[e.from]!;
      const to = WALLETS[e.to === e.from ? (e.to + 1) % 3 : e.to]!;
      const received = feeless ? e.units : e.units - (e.short < e.units ? e.short : 0n);
      return [
        sell({
          at,
          wallet: from.id,
          chain: from.chain,
          token: tokenOf(e.asset, from.chain),
          amount: amount(e.units),
          value: value(e.cents),
          transfer: `trf_${i}`,
        }),
        buy({ at, wallet: to.id, chain: to.chain, token: tokenOf(e.asset, to.chain), amount: amount(received), value: value(e.cents), transfer: `trf_${i}` }),
      ];
    }
    const w = WALLETS[e.wallet]!;
    const r = { at, wallet: w.id, chain: w.chain, token: tokenOf(e.asset, w.chain), amount: amount(e.units), value: value(e.cents) };
    return [e.kind === 'buy' ? buy({ ...r, tags: e.income ? [SALARY] : [] }) : sell(r)];
  });
}

const method = fc.constantFrom('fifo' as const, 'lifo' as const, 'hifo' as const);
const scope = fc.constantFrom('wallet' as const, 'universal' as const);

function runLedger(rows: Row[], m: 'fifo' | 'lifo' | 'hifo', s: 'wallet' | 'universal') {
  const ledger = new TaxLedger({ method: m, scope: s, assets: new AssetTable() });
  const lines = feed(ledger, rows).filter((l): l is DisposalLine => l.kind === 'disposal');
  return { lines, open: ledger.open() };
}

/** Quantities as units of 10^-18 (the widest scale here), so lines of either token's scale add up. */
const units18 = (q: { units: bigint; scale: number }) => upscale(q.units, q.scale, 18);
const symbolOf = (tx: Row) => tx.token.symbol;

describe('tax ledger properties', () => {
  it('for each asset, disposed quantities plus open lots equal what lots were opened with; cost likewise', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), method, scope, (events, m, s) => {
        const rows = rowsOf(events);
        const { lines, open } = runLedger(rows, m, s);
        for (const symbol of ['ETH', 'USDC']) {
          const opened = rows.filter((t) => symbolOf(t) === symbol && t.direction === 'inflow' && !t.transfer && t.fiat_value !== null);
          const acquired = opened.reduce((sum, t) => sum + units18(quantityOf(t.amount, t.token.decimals)), 0n);
          const covered = lines.filter((l) => l.asset.symbol === symbol && l.costCents !== null);
          const held = open.filter((p) => p.asset.symbol === symbol);
          expect(covered.reduce((sum, l) => sum + units18(l.quantity), 0n) + held.reduce((sum, p) => sum + units18(p.quantity), 0n)).toBe(acquired);
          const cost = opened.reduce((sum, t) => sum + BigInt(decimalToCents(String(t.fiat_value))!), 0n);
          expect(covered.reduce((sum, l) => sum + l.costCents!, 0n) + held.reduce((sum, p) => sum + p.costCents, 0n)).toBe(cost);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every quantity that leaves the owner is one disposal line or more: sales, and what a transfer lost on the way', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), method, scope, (events, m, s) => {
        const rows = rowsOf(events);
        const { lines } = runLedger(rows, m, s);
        const sold = events.reduce((sum, e) => sum + (e.kind === 'sell' ? e.units : e.kind === 'move' && e.short < e.units ? e.short : 0n), 0n);
        expect(lines.reduce((sum, l) => sum + units18(l.quantity), 0n)).toBe(sold * 10n ** 16n);
      }),
      { numRuns: 200 },
    );
  });

  it('own transfers that arrive whole change neither the cost basis nor, in one pool, which lots a sale meets', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), fc.constantFrom('fifo' as const, 'lifo' as const), (events, m) => {
        const withTransfers = runLedger(rowsOf(events, 'feeless'), m, 'universal');
        const without = runLedger(rowsOf(events, 'none'), m, 'universal');
        // A lot split by a partial transfer is met as two pieces: compare quantities per (sale, lot).
        const shape = (lines: DisposalLine[]) => {
          const met = new Map<string, bigint>();
          for (const l of lines) {
            const key = `${l.tx.timestamp} ${l.asset.key} ${l.acquired?.at ?? 'missing'}`;
            met.set(key, (met.get(key) ?? 0n) + units18(l.quantity));
          }
          return met;
        };
        expect(shape(withTransfers.lines)).toEqual(shape(without.lines));
        const basis = (r: ReturnType<typeof runLedger>) =>
          r.lines.reduce((sum, l) => sum + (l.costCents ?? 0n), 0n) + r.open.reduce((sum, p) => sum + p.costCents, 0n);
        expect(basis(withTransfers)).toBe(basis(without));
      }),
      { numRuns: 200 },
    );
  });
});
