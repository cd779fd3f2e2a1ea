/**
 * The Australian rules (docs/jurisdictions.md "au"). The ATO's own crypto examples with figures
 * are on its page "Crypto to crypto exchange or swap"
 * (https://www.ato.gov.au/Individuals/Investments-and-assets/Crypto-asset-investments/Transactions---acquiring-and-disposing-of-crypto-assets/Crypto-to-crypto-exchange-or-swap/):
 * Katrina's two swaps, entered as the ledger they describe. The discount's order after losses is
 * the ATO's "Working out your net capital gain or loss" (net capital gain = gains − losses −
 * discount; losses may be taken from the gains the discount does not reduce first); it gives no
 * crypto figures, so those cases are the docs' hand cases.
 */
import { describe, expect, it } from 'vitest';
import { netCapitalGain } from '../../src/accounting/jurisdictions/au.js';
import type { ReportLine } from '../../src/accounting/jurisdictions/types.js';
import { checkMethod } from '../../src/core/jurisdictions.js';
import type { Token } from '../../src/core/types.js';
import { buy, jurisdictionReport, type Row, sell, X } from './helpers.js';

const auReport = (rows: Row[], input?: Parameters<typeof jurisdictionReport>[2]) => jurisdictionReport('au', rows, input);
const cells = (l: ReportLine) => [l.date_acquired, l.date_sold, l.asset, l.quantity, l.capital_proceeds, l.cost_base, l.gain_loss, l.discount_eligible];
const coin = (symbol: string, n: number): Token => ({ symbol, address: `0x${String(n).padStart(40, '0')}`, decimals: 0 });
const A = coin('A', 1);
const B = coin('B', 2);
const D = coin('D', 4);

describe("the ATO's crypto to crypto examples", () => {
  it('Katrina: the market value of the new asset is the old one’s capital proceeds', () => {
    const rows = [
      buy({ at: '2021-07-05', amount: '100', value: 15000, token: A }),
      // 20 Coin A swapped for 100 Coin B, worth $6,000 on the exchange.
      sell({ at: '2021-11-15', amount: '20', value: 6000, token: A, hash: '0xa1' }),
      buy({ at: '2021-11-15', amount: '100', value: 6000, token: B, hash: '0xa1' }),
    ];
    const { lines, totals } = auReport(rows);
    // Capital proceeds $6,000; cost base $15,000 × 20/100 = $3,000; gain $3,000, held under 12 months.
    expect(lines.map(cells)).toEqual([['2021-07-05', '2021-11-15', 'A', '20', 600000n, 300000n, 300000n, 'no']]);
    expect(totals).toMatchObject({ gross_gains: 300000n, discount: 0n, net_capital_gain: 300000n });
    // Coin B's cost base is the $6,000: sold for $6,500 a year and more later, a discounted gain of $500.
    const later = auReport([...rows, sell({ at: '2022-11-16', amount: '100', value: 6500, token: B })]);
    expect(later.lines.map(cells)[1]).toEqual(['2021-11-15', '2022-11-16', 'B', '100', 650000n, 600000n, 50000n, 'yes']);
  });

  it('Katrina: a new coin with no market value takes the old coin’s', () => {
    const rows = [
      buy({ at: '2021-07-05', amount: '100', value: 15000, token: A }),
      // Coin D is not listed: the 20 Coin A are valued at their own market value, $5,000, and so is Coin D.
      sell({ at: '2021-11-15', amount: '20', value: 5000, token: A, hash: '0xa2' }),
      buy({ at: '2021-11-15', amount: '100', value: 5000, token: D, hash: '0xa2' }),
    ];
    expect(auReport(rows).lines.map(cells)).toEqual([['2021-07-05', '2021-11-15', 'A', '20', 500000n, 300000n, 200000n, 'no']]);
  });
});

describe('au: the CGT discount', () => {
  it('33. The discount after losses, which go first against undiscounted gains', () => {
    const rows = [
      buy({ at: '2022-08-01', amount: '1', value: 1000, token: X }),
      buy({ at: '2024-09-01', amount: '2', value: 2000, token: X }),
      // 2024–25: 1 held two years gains 1,000 (discountable); 1 held three months gains 400; 1 loses 600.
      sell({ at: '2024-10-01', amount: '1', value: 2000, token: X }),
      sell({ at: '2024-12-01', amount: '1', value: 1400, token: X }),
      sell({ at: '2025-03-01', amount: '1', value: 400, token: X }),
    ];
    const { lines, totals } = auReport(rows);
    expect(lines.map((l) => [l.gain_loss, l.discount_eligible])).toEqual([
      [100000n, 'yes'],
      [40000n, 'no'],
      [-60000n, 'no'],
    ]);
    // Losses 600: 400 against the undiscounted gain, 200 against the discountable one (1,000 → 800); discount 400; net 400.
    expect(totals).toEqual({
      gross_gains: 140000n,
      discountable_gains: 100000n,
      losses: 60000n,
      discount: 40000n,
      net_capital_gain: 40000n,
      net_capital_loss: 0n,
    });
    // More losses than gains: no discount, the rest carried forward.
    expect(netCapitalGain(100000n, 0n, 150000n)).toEqual({ discount: 0n, net: 0n, carried: 50000n });
  });

  it('34. Twelve months, the days of acquisition and sale not counted', () => {
    const held = (sold: string) =>
      auReport([buy({ at: '2023-07-01', amount: '1', value: 100, token: X }), sell({ at: sold, amount: '1', value: 300, token: X })]).totals;
    // Bought 1 July 2023: sold 1 July 2024 is 365 days between (not 12 months); 2 July 2024 is.
    expect(held('2024-07-01')).toMatchObject({ discountable_gains: 0n, net_capital_gain: 20000n });
    expect(held('2024-07-02')).toMatchObject({ discountable_gains: 20000n, discount: 10000n, net_capital_gain: 10000n });
  });

  it('35. Specific identification of the units sold; a sale fee is part of the cost base', () => {
    const first = buy({ at: '2024-01-01', amount: '1', value: 1000, token: X });
    const second = buy({ at: '2024-02-01', amount: '1', value: 3000, token: X, wallet: 'wal_b' });
    const sale = sell({ at: '2024-08-01', amount: '1', value: 3500, token: X, hash: '0xa3' });
    const gas = sell({ at: '2024-08-01', amount: '0.002', value: 10, hash: '0xa3', type: 'fee' });
    const rows = [buy({ at: '2024-01-01', amount: '1', value: 2000 }), first, second, sale, gas];
    const picks = new Map([[sale.id, [{ lotId: second.id, quantity: null, recordedAt: '2024-08-01T00:00:00Z' }]]]);
    const { lines } = auReport(rows, { input: { method: 'specific', books: { walletOrder: ['wal_a', 'wal_b'], picks } } });
    // The unit of 1 February picked (across wallets: one pool): proceeds 3,500, cost base 3,000 + 10 = 3,010, gain 490.
    expect(cells(lines.find((l) => l.asset === 'X')!)).toEqual(['2024-02-01', '2024-08-01', 'X', '1', 350000n, 301000n, 49000n, 'no']);
    // FIFO would have taken the unit of 1 January: gain 3,500 − 1,010 = 2,490.
    expect(auReport(rows).lines.find((l) => l.asset === 'X')!.gain_loss).toBe(249000n);
    expect(() => checkMethod('au', 'hifo')).toThrow(/cost_basis hifo is not allowed under jurisdiction au: it allows fifo, specific/);
    expect(checkMethod('au', 'specific')).toBe('specific');
  });
});
