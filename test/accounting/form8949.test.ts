/**
 * Form 8949's box, columns (d)–(h) and the matching of disposals to broker lines
 * (src/accounting/form8949.ts, docs/accounting.md "Form 8949, 1099-DA and the roll-forward"),
 * figures by hand.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { boxOf, brokerShare, BrokerMatcher, columnsOf, decimalUnits8, formDate, partOf, units8, type BrokerLine } from '../../src/accounting/form8949.js';

const line = (l: Partial<BrokerLine>): BrokerLine => ({
  line: 2,
  wallet_id: 'wal_cb',
  wallet_label: 'Coinbase',
  date_sold: '2025-02-10',
  date_acquired: null,
  asset: 'ETH',
  units: '1.5',
  proceeds_cents: 450000n,
  cost_basis_cents: 290000n,
  basis_reported: true,
  ...l,
});

describe('boxes', () => {
  it('G/H/I and J/K/L from 2025, A/B/C and D/E/F before, by the line matched and custody', () => {
    const reported = { basis_reported: true };
    const unreported = { basis_reported: false };
    const cases: [string, 'I' | 'II', { basis_reported: boolean } | null, boolean, string][] = [
      ['2025-01-01', 'I', reported, false, 'G'],
      ['2025-06-30', 'I', unreported, false, 'H'],
      ['2025-06-30', 'I', null, false, 'I'],
      ['2026-03-01', 'II', reported, false, 'J'],
      ['2026-03-01', 'II', unreported, false, 'K'],
      ['2026-03-01', 'II', null, false, 'L'],
      ['2025-03-01', 'II', reported, true, 'L'],
      ['2024-12-31', 'I', reported, false, 'A'],
      ['2024-12-31', 'I', unreported, false, 'B'],
      ['2024-12-31', 'I', null, false, 'C'],
      ['2023-05-01', 'II', reported, false, 'D'],
      ['2023-05-01', 'II', unreported, false, 'E'],
      ['2023-05-01', 'II', null, false, 'F'],
      ['2024-05-01', 'I', reported, true, 'C'],
    ];
    for (const [day, part, match, self, box] of cases) expect(boxOf(day, part, match, self)).toBe(box);
    expect([partOf('short'), partOf('long'), partOf(null)]).toEqual(['I', 'II', 'I']);
    expect(formDate('2025-02-10T12:00:00Z')).toBe('02/10/2025');
  });
});

describe('columns (d)–(h)', () => {
  it('no broker line: txa’s figures, no code', () => {
    expect(columnsOf({ proceeds: 380000n, cost: 150000n, broker: null })).toEqual({
      proceeds: 380000n,
      basis: 150000n,
      code: '',
      adjustment: null,
      gain: 230000n,
    });
    expect(columnsOf({ proceeds: 380000n, cost: null, broker: null }).gain).toBeNull();
  });

  it('basis reported to the IRS and wrong: (e) keeps it, B, (g) corrects it to txa’s gain', () => {
    // 1,933.33 reported, txa 1,500.00: (g) 433.33, (h) 3,000.00 − 1,933.33 + 433.33 = 1,500.00.
    expect(columnsOf({ proceeds: 300000n, cost: 150000n, broker: { proceeds: 300000n, basis: 193333n, basisReported: true } })).toEqual({
      proceeds: 300000n,
      basis: 193333n,
      code: 'B',
      adjustment: 43333n,
      gain: 150000n,
    });
  });

  it('basis not reported to the IRS and different: (e) is txa’s, B with (g) 0', () => {
    expect(columnsOf({ proceeds: 100000n, cost: 40000n, broker: { proceeds: 100000n, basis: 45000n, basisReported: false } })).toEqual({
      proceeds: 100000n,
      basis: 40000n,
      code: 'B',
      adjustment: 0n,
      gain: 60000n,
    });
  });

  it('proceeds that differ: (d) the broker’s, O, (g) the difference; with a wrong basis too, BO and the sum', () => {
    // Broker 990.00 proceeds and 450.00 basis reported; txa 1,000.00 and 400.00: (g) = 50.00 + 10.00 = 60.00, (h) 990 − 450 + 60 = 600.00.
    expect(columnsOf({ proceeds: 100000n, cost: 40000n, broker: { proceeds: 99000n, basis: 45000n, basisReported: true } })).toEqual({
      proceeds: 99000n,
      basis: 45000n,
      code: 'BO',
      adjustment: 6000n,
      gain: 60000n,
    });
  });

  it('for any figures, (h) is txa’s gain whenever txa has a basis and proceeds', () => {
    const cents = fc.bigInt({ min: 0n, max: 10_000_000n });
    fc.assert(
      fc.property(cents, cents, cents, fc.option(cents, { nil: null }), fc.boolean(), (proceeds, cost, bp, bb, reported) => {
        const c = columnsOf({ proceeds, cost, broker: { proceeds: bp, basis: bb, basisReported: reported } });
        expect(c.gain).toBe(proceeds - cost);
        expect(c.proceeds! - c.basis! + (c.adjustment ?? 0n)).toBe(proceeds - cost);
      }),
    );
  });
});

describe('matching', () => {
  it('same wallet, day, asset (any case), units to 8 decimals; each line once, in order', () => {
    const a = line({ line: 2, units: '0.123456785' });
    const b = line({ line: 3, units: '0.12345678', asset: 'eth' });
    const m = new BrokerMatcher([a, b]);
    const q = { units: 123456780000000000n, scale: 18 };
    expect(units8(q)).toBe('12345678');
    // 0.123456785 rounds half to even to 0.12345678.
    expect(decimalUnits8('0.123456785')).toBe('12345678');
    expect(m.take('wal_other', '2025-02-10', 'ETH', q)).toBeNull();
    expect(m.take('wal_cb', '2025-02-11', 'ETH', q)).toBeNull();
    expect(m.take('wal_cb', '2025-02-10', 'ETH', q)).toBe(a);
    expect(m.take('wal_cb', '2025-02-10', 'ETH', q)).toBe(b);
    expect(m.take('wal_cb', '2025-02-10', 'ETH', q)).toBeNull();
    expect(m.matched).toEqual(new Set([a, b]));
  });

  it('a line split over a disposal’s lots by quantity: each share rounded once, the shares adding up', () => {
    const l = line({});
    const whole = 15n;
    const first = brokerShare(l, 0n, 10n, whole);
    const second = brokerShare(l, 10n, whole, whole);
    expect([first.proceeds, first.basis, second.proceeds, second.basis]).toEqual([300000n, 193333n, 150000n, 96667n]);
  });
});
