/**
 * The German rules (docs/jurisdictions.md "de"). The BMF letter of 10 May 2022 on cryptoassets
 * states the rules (the one-year period, FIFO per wallet, staking and lending as § 22 Nr. 3 income)
 * but gives no worked figures for them, so these are the hand cases of the docs, each figure
 * worked there; § 23 Abs. 3 Satz 5 EStG (600 €, 1,000 € from 2024) and § 22 Nr. 3 Satz 2 EStG
 * (256 €) give the limits.
 */
import { describe, expect, it } from 'vitest';
import { OTHER_INCOME_LIMIT, privateSaleLimit } from '../../src/accounting/jurisdictions/de.js';
import type { ReportLine } from '../../src/accounting/jurisdictions/types.js';
import { checkMethod } from '../../src/core/jurisdictions.js';
import { buy, jurisdictionReport, type Row, STAKING, sell } from './helpers.js';

const deReport = (rows: Row[], unreported?: Set<Row>) => jurisdictionReport('de', rows, unreported ? { unreported } : {});
const cells = (l: ReportLine) => [l.type, l.date_acquired, l.date_sold, l.quantity, l.proceeds, l.cost, l.fees, l.gain_loss, l.holding];

describe('de: private sales and other income', () => {
  it('29. Units held more than one year are listed, not taxed', () => {
    const rows = [
      buy({ at: '2023-03-01', amount: '1', value: 1000 }),
      buy({ at: '2024-01-10', amount: '1', value: 2000 }),
      sell({ at: '2024-03-02', amount: '1.5', value: 4500 }),
    ];
    const { lines, totals } = deReport(rows);
    // FIFO: the unit of 1 March 2023 (a year ends with 1 March 2024: 2 March is after it) gains 3,000 − 1,000 = 2,000, tax-free;
    // 0.5 of 10 January 2024: 1,500 − 1,000 = 500, within one year.
    expect(lines.map(cells)).toEqual([
      ['private_sale', '2023-03-01', '2024-03-02', '1', 300000n, 100000n, 0n, 200000n, 'more than one year (tax-free)'],
      ['private_sale', '2024-01-10', '2024-03-02', '0.5', 150000n, 100000n, 0n, 50000n, 'one year or less'],
    ]);
    // 500 € is below 2024's limit of 1,000 €: nothing taxable.
    expect(totals).toMatchObject({ private_sales_net: 50000n, private_sales_limit: 100000n, private_sales_taxable: 0n, tax_free_gains: 200000n });
    // Sold on the anniversary itself (1 March 2024): still within one year.
    const day = deReport([buy({ at: '2023-03-01', amount: '1', value: 1000 }), sell({ at: '2024-03-01', amount: '1', value: 1100 })]);
    expect(day.lines[0]!.holding).toBe('one year or less');
  });

  it('30. The exemption limit is a Freigrenze: reached, the whole gain is taxable', () => {
    const year = (y: number, gain: number) => [
      buy({ at: `${y}-01-10`, amount: '1', value: 1000 }),
      sell({ at: `${y}-02-10`, amount: '1', value: 1000 + gain }),
    ];
    // 2023: 600 € reaches the 600 € limit: all 600 taxable.
    expect(deReport(year(2023, 600)).totals).toMatchObject({ private_sales_limit: 60000n, private_sales_taxable: 60000n });
    // 2024: 999.99 € stays below 1,000 €: 0; 1,000 € reaches it: all 1,000.
    expect(deReport(year(2024, 999.99)).totals).toMatchObject({ private_sales_net: 99999n, private_sales_taxable: 0n });
    expect(deReport(year(2024, 1000)).totals).toMatchObject({ private_sales_taxable: 100000n });
    // Gains and losses of the year are netted first: 1,500 − 700 = 800 < 1,000: 0. A net loss is carried.
    const netted = [
      buy({ at: '2024-01-10', amount: '2', value: 2000 }),
      sell({ at: '2024-02-10', amount: '1', value: 2500 }),
      sell({ at: '2024-03-10', amount: '1', value: 300 }),
    ];
    expect(deReport(netted).totals).toMatchObject({ private_sales_gains: 150000n, private_sales_losses: 70000n, private_sales_taxable: 0n });
    expect(deReport(year(2024, -300)).totals).toMatchObject({ private_sales_taxable: 0n, private_sales_loss: 30000n });
    expect([privateSaleLimit(2023), privateSaleLimit(2024), OTHER_INCOME_LIMIT]).toEqual([60000n, 100000n, 25600n]);
  });

  it('31. FIFO per wallet; an own transfer keeps the acquisition date', () => {
    const rows = [
      buy({ at: '2024-01-01', amount: '1', value: 1000 }),
      buy({ at: '2024-02-01', amount: '1', value: 3000, wallet: 'wal_b' }),
      sell({ at: '2024-06-01', amount: '1', value: 3500, wallet: 'wal_b' }),
      sell({ at: '2024-03-01', amount: '1', value: 0, transfer: 'tr_1' }),
      buy({ at: '2024-03-01', amount: '1', value: 0, transfer: 'tr_1', wallet: 'wal_c' }),
      sell({ at: '2025-01-02', amount: '1', value: 4000, wallet: 'wal_c' }),
    ].sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1));
    const { lines } = deReport(rows);
    // Wallet b sells its own unit (3,000), not wallet a's older one: 500, within one year.
    expect(cells(lines[0]!)).toEqual(['private_sale', '2024-02-01', '2024-06-01', '1', 350000n, 300000n, 0n, 50000n, 'one year or less']);
    // Wallet c's unit came from wallet a, bought 1 January 2024: sold 2 January 2025, more than a year: tax-free.
    expect(cells(lines[1]!)).toEqual(['private_sale', '2024-01-01', '2025-01-02', '1', 400000n, 100000n, 0n, 300000n, 'more than one year (tax-free)']);
  });

  it('32. Staking income and its 256 € limit; a sale fee is Werbungskosten', () => {
    const stake = (at: string, value: number) => buy({ at, amount: '0.1', value, tags: [STAKING] });
    const below = deReport([stake('2024-02-01', 200), stake('2024-08-01', 55.99)]);
    expect(below.lines.map((l) => [l.type, l.date_acquired, l.proceeds, l.note])).toEqual([
      ['other_income', '2024-02-01', 20000n, 'Staking'],
      ['other_income', '2024-08-01', 5599n, 'Staking'],
    ]);
    // 255.99 € is below 256 €: not taxable; 256 € is taxable in full.
    expect(below.totals).toMatchObject({ other_income: 25599n, other_income_taxable: 0n });
    expect(deReport([stake('2024-02-01', 200), stake('2024-08-01', 56)]).totals).toMatchObject({ other_income: 25600n, other_income_taxable: 25600n });
    // A sale of 1 ETH for 3,000 € paying 10 € of gas (in ETH) from a lot of 2 at 4,000 €:
    // proceeds 3,000, cost 2,000, fees 10, gain 990; the gas itself disposes of 0.002 ETH (10 − 4 = 6).
    const rows = [
      buy({ at: '2024-01-01', amount: '2', value: 4000 }),
      sell({ at: '2024-04-01', amount: '1', value: 3000, hash: '0xde01' }),
      sell({ at: '2024-04-01', amount: '0.002', value: 10, hash: '0xde01', type: 'fee' }),
    ];
    expect(deReport(rows).lines.map(cells)).toEqual([
      ['private_sale', '2024-01-01', '2024-04-01', '1', 300000n, 200000n, 1000n, 99000n, 'one year or less'],
      ['private_sale', '2024-01-01', '2024-04-01', '0.002', 1000n, 400n, 0n, 600n, 'one year or less'],
    ]);
  });

  it('refuses a method Germany does not allow', () => {
    expect(() => checkMethod('de', 'hifo')).toThrow(/cost_basis hifo is not allowed under jurisdiction de: it allows fifo only/);
  });
});
