import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { divRoundHalfEven, movementOf, realisedGains, type Asset, type CostBasisMethod, type Movement } from '../../src/core/cost-basis.js';
import type { Transaction } from '../../src/core/types.js';

// Whole units (decimals 0) keep the hand arithmetic readable; cents are integers.
const X: Asset = { key: 'ethereum:X', symbol: 'X', chain: 'ethereum', decimals: 0 };
let n = 0;
const buy = (qty: bigint, cents: bigint | null, asset = X): Movement =>
  ({ id: `b${++n}`, timestamp: `2024-01-${String(n).padStart(2, '0')}T00:00:00Z`, asset, direction: 'inflow', quantity: qty, valueCents: cents });
const sell = (qty: bigint, cents: bigint | null, asset = X): Movement =>
  ({ id: `s${++n}`, timestamp: `2024-01-${String(n).padStart(2, '0')}T00:00:00Z`, asset, direction: 'outflow', quantity: qty, valueCents: cents });

const pieces = (method: CostBasisMethod, moves: Movement[]) => {
  const [g] = realisedGains(moves, method);
  return { g: g!, m: g!.matches.map((x) => [x.acquisitionId, x.quantity, x.costCents, x.proceedsCents, x.gainCents]) };
};

describe('divRoundHalfEven', () => {
  it.each([
    [5n, 2n, 2n], // 2.5 → 2 (even)
    [7n, 2n, 4n], // 3.5 → 4 (even)
    [-5n, 2n, -2n], // -2.5 → -2
    [-7n, 2n, -4n], // -3.5 → -4
    [10n, 3n, 3n], // 3.33 → 3
    [20n, 3n, 7n], // 6.67 → 7
    [-20n, 3n, -7n],
    [6n, 3n, 2n],
  ])('%d / %d = %d', (a, b, q) => expect(divRoundHalfEven(a, b)).toBe(q));
});

describe('realisedGains: one sale over three lots', () => {
  // Lots (quantity, cost, unit cost): L1 10 @ 100.00 (10.00), L2 10 @ 300.00 (30.00), L3 5 @ 100.00 (20.00).
  // Sale: 12 units for 480.00.
  const moves = () => {
    n = 0;
    return [buy(10n, 10000n), buy(10n, 30000n), buy(5n, 10000n), sell(12n, 48000n)];
  };

  it('FIFO takes L1 then L2', () => {
    // L1: all 10, cost 100.00. L2: 2 of 10, cost round(300.00 × 2/10) = 60.00.
    // Proceeds: first 10 of 12 → round(480.00 × 10/12) = 400.00; last 2 → 480.00 − 400.00 = 80.00.
    // Gains: 400 − 100 = 300.00; 80 − 60 = 20.00. Totals: cost 160.00, gain 320.00.
    // Open: L2 8 units @ 300 − 60 = 240.00, L3 5 @ 100.00 → 13 units, 340.00.
    const { g, m } = pieces('fifo', moves());
    expect(m).toEqual([['b1', 10n, 10000n, 40000n, 30000n], ['b2', 2n, 6000n, 8000n, 2000n]]);
    expect([g.proceedsCents, g.costCents, g.gainCents]).toEqual([48000n, 16000n, 32000n]);
    expect([g.openQuantity, g.openCostCents, g.uncoveredQuantity]).toEqual([13n, 34000n, 0n]);
  });

  it('LIFO takes L3 then L2', () => {
    // L3: all 5, cost 100.00. L2: 7 of 10, cost round(300.00 × 7/10) = 210.00.
    // Proceeds: 5/12 → round(480 × 5/12) = 200.00; rest 280.00. Gains 100.00 and 70.00.
    // Totals: cost 310.00, gain 170.00. Open: L1 10 @ 100.00, L2 3 @ 90.00 → 13, 190.00.
    const { g, m } = pieces('lifo', moves());
    expect(m).toEqual([['b3', 5n, 10000n, 20000n, 10000n], ['b2', 7n, 21000n, 28000n, 7000n]]);
    expect([g.proceedsCents, g.costCents, g.gainCents]).toEqual([48000n, 31000n, 17000n]);
    expect([g.openQuantity, g.openCostCents]).toEqual([13n, 19000n]);
  });

  it('HIFO takes the highest unit cost first: L2 (30.00) then L3 (20.00)', () => {
    // L2: all 10, cost 300.00. L3: 2 of 5, cost round(100.00 × 2/5) = 40.00.
    // Proceeds 400.00 and 80.00; gains 100.00 and 40.00. Totals: cost 340.00, gain 140.00.
    // Open: L1 10 @ 100.00, L3 3 @ 60.00 → 13, 160.00.
    const { g, m } = pieces('hifo', moves());
    expect(m).toEqual([['b2', 10n, 30000n, 40000n, 10000n], ['b3', 2n, 4000n, 8000n, 4000n]]);
    expect([g.proceedsCents, g.costCents, g.gainCents]).toEqual([48000n, 34000n, 14000n]);
    expect([g.openQuantity, g.openCostCents]).toEqual([13n, 16000n]);
  });

  it('HIFO breaks a unit-cost tie by the earliest acquisition', () => {
    // A: 1 @ 1.00, B: 2 @ 2.00 — both 1.00 a unit; selling 1 takes A.
    n = 0;
    const { m } = pieces('hifo', [buy(1n, 100n), buy(2n, 200n), sell(1n, 150n)]);
    expect(m).toEqual([['b1', 1n, 100n, 150n, 50n]]);
  });

  it('LIFO keeps taking from a partly used last lot', () => {
    // L1 4 @ 4.00, L2 4 @ 8.00; sell 1 then 1: both from L2 at round(8.00 × 1/4) = 2.00 each.
    n = 0;
    const { m } = pieces('lifo', [buy(4n, 400n), buy(4n, 800n), sell(1n, 300n), sell(1n, 300n)]);
    expect(m).toEqual([['b2', 1n, 200n, 300n, 100n], ['b2', 1n, 200n, 300n, 100n]]);
  });
});

describe('realisedGains: pro-rating and rounding', () => {
  it('splits one lot into thirds whose costs add up to the lot exactly', () => {
    // Lot 3 units @ 1.00. Pieces of 1 unit: round(100×1/3)=33 − 0 = 33; round(100×2/3)=67 − 33 = 34;
    // 100 − 67 = 33. Sum 100. Each sale brings 0.50: gains 17, 16, 17.
    n = 0;
    const { g, m } = pieces('fifo', [buy(3n, 100n), sell(1n, 50n), sell(1n, 50n), sell(1n, 50n)]);
    expect(m.map((x) => x[2])).toEqual([33n, 34n, 33n]);
    expect(m.map((x) => x[4])).toEqual([17n, 16n, 17n]);
    expect([g.costCents, g.openQuantity, g.openCostCents]).toEqual([100n, 0n, 0n]);
  });

  it('rounds each piece half to even', () => {
    // Lot 4 units @ 0.02. Cumulative shares: 2×1/4 = 0.5 → 0; 2×2/4 = 1; 2×3/4 = 1.5 → 2; 2.
    // Pieces: 0, 1 − 0 = 1, 2 − 1 = 1, 2 − 2 = 0.
    n = 0;
    const { m } = pieces('fifo', [buy(4n, 2n), sell(1n, 0n), sell(1n, 0n), sell(1n, 0n), sell(1n, 0n)]);
    expect(m.map((x) => x[2])).toEqual([0n, 1n, 1n, 0n]);
  });

  it('splits a sale\'s proceeds across lots by the same rule', () => {
    // Lots 1 @ 1.00 and 2 @ 1.00; sale of 3 for 1.00: round(100×1/3) = 33, then 100 − 33 = 67.
    n = 0;
    const { m } = pieces('fifo', [buy(1n, 100n), buy(2n, 100n), sell(3n, 100n)]);
    expect(m.map((x) => x[3])).toEqual([33n, 67n]);
  });
});

describe('realisedGains: what is flagged, never hidden', () => {
  it('reports the part of a sale no lot covers, with its share of proceeds', () => {
    // Lot 1 @ 1.00; sale 3 for 9.00: 1 unit matched (proceeds 9.00×1/3 = 3.00, gain 2.00);
    // 2 units uncovered with proceeds 6.00 and no cost (not a zero cost: left out of the gain).
    n = 0;
    const { g, m } = pieces('fifo', [buy(1n, 100n), sell(3n, 900n)]);
    expect(m).toEqual([['b1', 1n, 100n, 300n, 200n]]);
    expect(g.uncovered).toEqual([{ disposalId: 's2', disposedAt: g.uncovered[0]!.disposedAt, quantity: 2n, proceedsCents: 600n }]);
    expect([g.uncoveredQuantity, g.proceedsCents, g.gainCents]).toEqual([2n, 300n, 200n]);
  });

  it('opens no lot for an inflow without a value', () => {
    n = 0;
    const { g, m } = pieces('fifo', [buy(5n, null), sell(2n, 1000n)]);
    expect(m).toEqual([]);
    expect(g.uncovered.map((u) => [u.quantity, u.proceedsCents])).toEqual([[2n, 1000n]]);
  });

  it('consumes lots for a sale without a value but leaves its gain unknown', () => {
    // Lot 2 @ 2.00; 1 unit leaves with no price: cost 1.00 used, proceeds and gain unknown.
    n = 0;
    const { g, m } = pieces('fifo', [buy(2n, 200n), sell(1n, null)]);
    expect(m).toEqual([['b1', 1n, 100n, null, null]]);
    expect([g.unpricedQuantity, g.proceedsCents, g.costCents, g.gainCents, g.openQuantity, g.openCostCents]).toEqual([1n, 0n, 0n, 0n, 1n, 100n]);
  });

  it('keeps assets apart by chain and contract', () => {
    n = 0;
    const Y = { ...X, key: 'arbitrum:X', chain: 'arbitrum' as const };
    const gains = realisedGains([buy(1n, 100n), sell(1n, 500n, Y)], 'fifo');
    expect(gains.map((g) => [g.asset.key, g.matchedQuantity, g.uncoveredQuantity])).toEqual([['arbitrum:X', 0n, 1n], ['ethereum:X', 0n, 0n]]);
  });

  it('conserves quantity and cost for any sequence (property)', () => {
    const move = fc.record({
      inflow: fc.boolean(),
      qty: fc.bigInt({ min: 1n, max: 1000n }),
      cents: fc.option(fc.bigInt({ min: 0n, max: 100000n }), { nil: null }),
    });
    fc.assert(fc.property(fc.array(move, { maxLength: 40 }), fc.constantFrom<CostBasisMethod>('fifo', 'lifo', 'hifo'), (list, method) => {
      const moves = list.map((x, i) => ({ id: `m${i}`, timestamp: '', asset: X, direction: x.inflow ? 'inflow' : 'outflow', quantity: x.qty, valueCents: x.cents }) as Movement);
      const [g] = realisedGains(moves, method);
      if (!g) return list.length === 0;
      const lots = moves.filter((m) => m.direction === 'inflow' && m.valueCents !== null);
      const out = moves.filter((m) => m.direction === 'outflow').reduce((s, m) => s + m.quantity, 0n);
      const lotQty = lots.reduce((s, m) => s + m.quantity, 0n);
      const lotCost = lots.reduce((s, m) => s + m.valueCents!, 0n);
      const matchedCost = g.matches.reduce((s, m) => s + m.costCents, 0n);
      expect(g.matchedQuantity + g.uncoveredQuantity).toBe(out);
      expect(g.matchedQuantity + g.openQuantity).toBe(lotQty);
      expect(matchedCost + g.openCostCents).toBe(lotCost);
      return true;
    }));
  });
});

describe('movementOf', () => {
  it('reads exact base units and cents from a transaction', () => {
    const tx = {
      id: 't1', chain: 'ethereum', token: { symbol: 'USDC', address: '0xA0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
      amount: '1234.567891', fiat_value: 1234.57, direction: 'outflow', timestamp: '2024-01-01T00:00:00Z',
    } as Transaction;
    const m = movementOf(tx);
    expect(m.quantity).toBe(1234567891n);
    expect(m.valueCents).toBe(123457n);
    expect(m.asset.key).toBe('ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
    const eth = movementOf({ ...tx, token: { symbol: 'ETH', address: null, decimals: 18 }, amount: '0.000000000000000001', fiat_value: null });
    expect([eth.quantity, eth.valueCents, eth.asset.key]).toEqual([1n, null, 'ethereum:ETH']);
  });
});
