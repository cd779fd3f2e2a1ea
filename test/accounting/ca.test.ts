/**
 * The Canadian rules (docs/jurisdictions.md "ca") on published worked examples, each entered as
 * the ledger it describes (shares become token X, a commission a fee row of the same transaction
 * paid in token F, a fee coin whose own disposals gain nothing), with the page's figures:
 *  - adjustedcostbase.ca, "How to Calculate Adjusted Cost Base (ACB) and Capital Gains"
 *    (https://www.adjustedcostbase.ca/blog/how-to-calculate-adjusted-cost-base-acb-and-capital-gains/);
 *  - adjustedcostbase.ca, "What Is the Superficial Loss Rule?" examples #1 and #2
 *    (https://www.adjustedcostbase.ca/blog/what-is-the-superficial-loss-rule/, example #1 repeated in
 *    https://www.adjustedcostbase.ca/blog/applying-the-superficial-loss-rule-with-adjusted-cost-base-ca/);
 *  - adjustedcostbase.ca, "Applying the Superficial Loss Rule for a Partial Disposition of Shares"
 *    (https://www.adjustedcostbase.ca/blog/applying-the-superficial-loss-rule-for-a-partial-disposition-of-shares/),
 *    its two simpler cases, and the CRA's own example it quotes from IT-456R ¶12 (50 on hand, 20 sold
 *    at a loss, 15 reacquired: the loss denied on 15), which gives no prices: ours are stated.
 * The figures are the pages' (their tables, as reproduced by the cryptoTax R package's tests of
 * the same examples, cran/cryptoTax tests/testthat/_snaps/ACB.md, where the pages show images).
 * And the CRA's own "Example of how to calculate your capital gain" (canada.ca, line 12700), cited
 * in its test.
 */
import { describe, expect, it } from 'vitest';
import { AssetTable } from '../../src/accounting/assets.js';
import { inclusionRate } from '../../src/accounting/jurisdictions/ca.js';
import { jurisdictionOf } from '../../src/accounting/jurisdictions/index.js';
import type { ReportLine } from '../../src/accounting/jurisdictions/types.js';
import { checkMethod } from '../../src/core/jurisdictions.js';
import type { Token } from '../../src/core/types.js';
import { buy, jurisdictionReport, type Row, sell, X } from './helpers.js';

/** The fee coin: bought at 1.00 a unit, so paying a fee in it gains nothing. */
const F: Token = { symbol: 'F', address: '0x00000000000000000000000000000000000000ff', decimals: 2 };

const caReport = (rows: Row[], unreported?: Set<Row>) => jurisdictionReport('ca', rows, unreported ? { unreported } : {});

const of = (lines: ReportLine[], symbol = 'X') => lines.filter((l) => l.asset === symbol);
const cells = (l: ReportLine) => [l.date_sold, l.quantity, l.proceeds, l.acb, l.outlays, l.gain_loss, l.superficial_loss_denied];

let h = 0;
/** A trade of X with a commission paid in F, as one transaction. */
function trade(at: string, side: 'buy' | 'sell', amount: string, value: number, commission: number): Row[] {
  const hash = `0xca${(++h).toString(16).padStart(62, '0')}`;
  const leg = side === 'buy' ? buy({ at, amount, value, token: X, hash }) : sell({ at, amount, value, token: X, hash });
  return [leg, sell({ at, amount: String(commission), value: commission, token: F, hash, type: 'fee' })];
}

const fees = buy({ at: '2014-01-01', amount: '1000', value: 1000, token: F });

describe('adjustedcostbase.ca worked examples', () => {
  it('23. Average cost across purchases, commissions in the ACB and as outlays', () => {
    const rows = [
      fees,
      ...trade('2014-03-03', 'buy', '100', 5000, 10),
      ...trade('2014-05-01', 'sell', '50', 6000, 10),
      ...trade('2014-07-18', 'buy', '50', 6500, 10),
      ...trade('2014-09-25', 'sell', '40', 3600, 10),
    ];
    const { lines } = caReport(rows);
    // ACB 5,000 + 10 = 5,010 (50.10 a share); sold 50: 6,000 − 2,505 − 10 = 3,485.
    // ACB 2,505 + 6,500 + 10 = 9,015 for 100 (90.15); sold 40: 3,600 − 3,606 − 10 = −16
    // (the purchase of 18 July is 69 days before: not superficial).
    expect(of(lines).map(cells)).toEqual([
      ['2014-05-01', '50', 600000n, 250500n, 1000n, 348500n, 0n],
      ['2014-09-25', '40', 360000n, 360600n, 1000n, -1600n, 0n],
    ]);
    // The commissions paid in F are F's own dispositions at their cost: no gain.
    expect(of(lines, 'F').every((l) => l.gain_loss === 0n)).toBe(true);
  });

  it('24. A superficial loss: sold at a loss, bought back the next day', () => {
    const rows = [
      buy({ at: '2014-01-06', amount: '100', value: 5000, token: X }),
      sell({ at: '2014-11-03', amount: '100', value: 3000, token: X }),
      buy({ at: '2014-11-04', amount: '100', value: 3000, token: X, wallet: 'wal_b' }),
      sell({ at: '2015-12-02', amount: '100', value: 8000, token: X, wallet: 'wal_b' }),
    ];
    const { lines, totals } = caReport(rows, new Set(rows.slice(2)));
    // The loss of 2,000 is denied and added to the ACB of the 100 bought back: 3,000 + 2,000 = 5,000.
    expect(cells(lines[0]!)).toEqual(['2014-11-03', '100', 300000n, 500000n, 0n, 0n, 200000n]);
    expect(lines[0]!.note).toBe('superficial loss');
    expect(totals).toMatchObject({ losses: 0n, superficial_losses_denied: 200000n, taxable_capital_gain: 0n });
    // Sold in 2015 for 8,000: gain 8,000 − 5,000 = 3,000 (not 5,000).
    const all = caReport(rows).lines;
    expect(cells(all[1]!)).toEqual(['2015-12-02', '100', 800000n, 500000n, 0n, 300000n, 0n]);
  });

  it('25. A superficial loss on a purchase made before the sale', () => {
    const rows = [
      buy({ at: '2014-01-06', amount: '100', value: 5000, token: X }),
      buy({ at: '2014-11-03', amount: '100', value: 3000, token: X }),
      sell({ at: '2014-11-04', amount: '100', value: 3000, token: X }),
      sell({ at: '2015-12-02', amount: '100', value: 8000, token: X }),
    ];
    const { lines } = caReport(rows);
    // ACB 8,000 for 200 (40.00); sold 100 for 3,000: loss 1,000, denied (100 bought the day
    // before, 100 still held 30 days after); ACB left 4,000 + 1,000 = 5,000; then 8,000 − 5,000 = 3,000.
    expect(lines.map(cells)).toEqual([
      ['2014-11-04', '100', 300000n, 400000n, 0n, 0n, 100000n],
      ['2015-12-02', '100', 800000n, 500000n, 0n, 300000n, 0n],
    ]);
  });

  it('26. A partial superficial loss: 100 sold, 25 bought back', () => {
    const rows = [
      buy({ at: '2015-01-02', amount: '100', value: 300, token: X }),
      sell({ at: '2015-04-09', amount: '100', value: 200, token: X }),
      buy({ at: '2015-04-10', amount: '25', value: 55, token: X }),
      sell({ at: '2015-07-01', amount: '25', value: 0, token: X }),
    ];
    const { lines } = caReport(rows);
    // Loss 100; least of 100 sold, 25 bought, 25 held = 25: denied 100 × 25/100 = 25, loss 75.
    expect(cells(lines[0]!)).toEqual(['2015-04-09', '100', 20000n, 30000n, 0n, -7500n, 2500n]);
    // The 25 bought back: ACB 55 + 25 = 80 (3.20 a share).
    expect(lines[1]!.acb).toBe(8000n);
  });

  it('27. A partial superficial loss: 100 bought, 80 sold the next day', () => {
    const rows = [
      buy({ at: '2015-04-09', amount: '100', value: 300, token: X }),
      sell({ at: '2015-04-10', amount: '80', value: 160, token: X }),
      sell({ at: '2015-07-01', amount: '20', value: 0, token: X }),
    ];
    const { lines } = caReport(rows);
    // Loss 160 − 240 = 80; least of 80 sold, 100 bought, 20 held = 20: denied 80 × 20/80 = 20, loss 60.
    expect(cells(lines[0]!)).toEqual(['2015-04-10', '80', 16000n, 24000n, 0n, -6000n, 2000n]);
    // The 20 left: ACB 60 + 20 = 80 (4.00 a share).
    expect(lines[1]!.acb).toBe(8000n);
  });
});

describe('the CRA', () => {
  it('28. IT-456R ¶12: 20 of 50 sold at a loss, 15 reacquired, the loss denied on 15', () => {
    // IT-456R gives the quantities only; the prices are ours: 50 at 10.00, 20 sold at 6.00, 15 bought at 6.00.
    const rows = [
      buy({ at: '2023-01-10', amount: '50', value: 500, token: X }),
      sell({ at: '2024-03-01', amount: '20', value: 120, token: X }),
      buy({ at: '2024-03-15', amount: '15', value: 90, token: X, wallet: 'wal_b' }),
      sell({ at: '2024-06-01', amount: '45', value: 450, token: X }),
    ];
    const { lines, totals } = caReport(rows);
    // Loss 120 − 200 = 80; least of 20, 15 and 45 = 15: denied 80 × 15/20 = 60, loss 20.
    expect(cells(lines[0]!)).toEqual(['2024-03-01', '20', 12000n, 20000n, 0n, -2000n, 6000n]);
    // ACB 300 + 60 + 90 = 450 for 45: the sale at 450 gains nothing.
    expect(cells(lines[1]!)).toEqual(['2024-06-01', '45', 45000n, 45000n, 0n, 0n, 0n]);
    expect(totals).toMatchObject({ losses: 2000n, net_capital_gain: -2000n, taxable_capital_gain: 0n, net_capital_loss: 2000n });
  });

  it('the CRA\'s "Example of how to calculate your capital gain": Mario\'s 400 shares, a $60 commission', () => {
    // https://www.canada.ca/en/revenue-agency/services/tax/individuals/topics/about-your-tax-return/tax-return/completing-a-tax-return/personal-income/line-12700-capital-gains/you-calculate-your-capital-gain-loss/example-calculate-your-capital-gain.html
    // In 2020 Mario sells 400 shares for $6,500, paying a $60 commission; their ACB is $4,000:
    // $6,500 − ($4,000 + $60) = $2,440, of which 1/2, $1,220, is the taxable capital gain (line 12700).
    const rows = [fees, buy({ at: '2019-06-03', amount: '400', value: 4000, token: X }), ...trade('2020-06-15', 'sell', '400', 6500, 60)];
    const { lines, totals } = caReport(rows, new Set(rows.slice(0, 2)));
    expect(of(lines).map(cells)).toEqual([['2020-06-15', '400', 650000n, 400000n, 6000n, 244000n, 0n]]);
    expect(totals).toMatchObject({
      proceeds: 650000n + 6000n,
      acb: 400000n + 6000n,
      outlays: 6000n,
      gains: 244000n,
      net_capital_gain: 244000n,
      taxable_capital_gain: 122000n,
    });
  });

  it('superficial only when the asset is still held 30 days after, and only within 30 days', () => {
    // Sold at a loss, bought back, all sold again within the 30 days: nothing held at the end.
    const out = caReport([
      buy({ at: '2024-01-01', amount: '10', value: 100, token: X }),
      sell({ at: '2024-02-01', amount: '10', value: 50, token: X }),
      buy({ at: '2024-02-10', amount: '10', value: 50, token: X }),
      sell({ at: '2024-02-20', amount: '10', value: 50, token: X }),
    ]).lines;
    expect(out[0]).toMatchObject({ gain_loss: -5000n, superficial_loss_denied: 0n });
    // Bought back 31 days later: outside the window (2 January + 30 = 1 February; 2 February is not).
    const late = caReport([
      buy({ at: '2023-12-01', amount: '10', value: 100, token: X }),
      sell({ at: '2024-01-02', amount: '10', value: 50, token: X }),
      buy({ at: '2024-02-02', amount: '10', value: 50, token: X }),
    ]).lines;
    expect(late[0]).toMatchObject({ gain_loss: -5000n, superficial_loss_denied: 0n });
    const edge = caReport([
      buy({ at: '2023-12-01', amount: '10', value: 100, token: X }),
      sell({ at: '2024-01-02', amount: '10', value: 50, token: X }),
      buy({ at: '2024-02-01', amount: '10', value: 50, token: X }),
    ]).lines;
    expect(edge[0]).toMatchObject({ gain_loss: 0n, superficial_loss_denied: 5000n });
  });

  it('the taxable capital gain at the inclusion rate of the date; own transfers change nothing', () => {
    expect([inclusionRate('2024-06-25'), inclusionRate('2025-06-01'), inclusionRate('2000-06-01'), inclusionRate('1999-06-01')]).toEqual([
      { from: '2000-10-18', num: 1n, den: 2n },
      { from: '2000-10-18', num: 1n, den: 2n },
      { from: '2000-02-28', num: 2n, den: 3n },
      { from: '0000-01-01', num: 3n, den: 4n },
    ]);
    const rows = [
      buy({ at: '2024-01-01', amount: '4', value: 4000, token: X }),
      sell({ at: '2024-02-01', amount: '2', value: 0, token: X, transfer: 'tr_1' }),
      buy({ at: '2024-02-01', amount: '2', value: 0, token: X, transfer: 'tr_1', wallet: 'wal_b' }),
      buy({ at: '2024-03-01', amount: '4', value: 6000, token: X }),
      sell({ at: '2024-08-01', amount: '3', value: 4501, token: X, wallet: 'wal_b' }),
    ];
    const { lines, totals } = caReport(rows);
    // Pool 8 at 10,000 across both wallets: 3 cost 3,750; gain 751.00; taxable 375.50.
    expect(cells(lines[0]!)).toEqual(['2024-08-01', '3', 450100n, 375000n, 0n, 75100n, 0n]);
    expect(totals).toMatchObject({ dispositions: 1, gains: 75100n, net_capital_gain: 75100n, inclusion_rate: 0.5, taxable_capital_gain: 37550n });
  });

  it('answers lines as they settle, in row order, an asset without later rows settled by time', () => {
    const Y: Token = { symbol: 'Y', address: '0x00000000000000000000000000000000000000bb', decimals: 0 };
    // Y: a loss on 2 January 2024, bought back on 10 January, then no row of Y again.
    const rows = [
      buy({ at: '2024-01-01', amount: '10', value: 100, token: Y }),
      sell({ at: '2024-01-02', amount: '10', value: 50, token: Y }),
      buy({ at: '2024-01-10', amount: '10', value: 50, token: Y }),
    ];
    // X: 1,500 rows over about 100 days, a sale every third at the cost price.
    const start = Date.parse('2024-01-03T00:00:00Z');
    for (let i = 0; i < 1500; i++) {
      const at = new Date(start + i * 6000_000).toISOString().replace('.000Z', 'Z');
      rows.push(i % 3 === 2 ? sell({ at, amount: '1', value: 10, token: X }) : buy({ at, amount: '1', value: 10, token: X }));
    }
    const rep = jurisdictionOf('ca').report!({ assets: new AssetTable(), method: 'fifo' });
    const early: ReportLine[] = [];
    for (const row of rows) early.push(...rep.add(row, true));
    const all = [...early, ...rep.end()];
    // Y's line came out before the end: its rows settled by time, not by a later row of Y.
    expect(early[0]).toMatchObject({ date_sold: '2024-01-02', asset: 'Y', gain_loss: 0n, superficial_loss_denied: 5000n });
    expect(early.length).toBeGreaterThan(100);
    expect(all).toHaveLength(501);
    const days = all.map((l) => l.date_sold as string);
    expect(days).toEqual([...days].sort());
  });

  it('refuses a method Canada does not allow, naming what it allows', () => {
    expect(() => checkMethod('ca', 'hifo')).toThrow(
      /cost_basis hifo is not allowed under jurisdiction ca: it allows no choice of lots: the adjusted cost base is the average cost/,
    );
    expect(checkMethod('ca', undefined)).toBe('fifo');
  });
});
