/**
 * Germany (docs/jurisdictions.md "de"): calendar tax year, EUR, FIFO per wallet (BMF letter of
 * 10 May 2022 on cryptoassets). Private sales (§ 23 EStG): a unit disposed of more than one year
 * after its acquisition is tax-free (listed, not taxed); the year's net gain of the others is
 * taxable in full once it reaches the year's exemption limit (Freigrenze: 600 € through 2023,
 * 1,000 € from 2024). Other income (§ 22 Nr. 3 EStG: staking, lending) is taxable in full once it
 * reaches 256 € in the year. The lines are those of Anlage SO.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { DisposalLine, IncomeLine } from '../tax-ledger.js';
import { disposalNote, grossProceeds, LotsReport, quantityOfLine } from './lots-report.js';
import type { Jurisdiction, ReportInput, ReportLine, ReportTotal } from './types.js';

export const DE_COLUMNS = [
  'type',
  'asset',
  'quantity',
  'date_acquired',
  'date_sold',
  'proceeds',
  'cost',
  'fees',
  'gain_loss',
  'holding',
  'wallet',
  'note',
] as const;

/** § 23 Abs. 3 Satz 5 EStG: gains below this (euro cents) in a calendar year stay tax-free; 1,000 € from 2024 (Wachstumschancengesetz). */
export function privateSaleLimit(year: number): bigint {
  return year >= 2024 ? 100_000n : 60_000n;
}

/** § 22 Nr. 3 Satz 2 EStG: other income below 256 € (cents) in a year stays tax-free. */
export const OTHER_INCOME_LIMIT = 25_600n;

interface Year {
  gains: bigint;
  losses: bigint;
  income: bigint;
}

class DeReport extends LotsReport {
  private readonly years = new Map<number, Year>();
  private taxFree = 0n;

  constructor(input: ReportInput) {
    // The BMF letter accepts FIFO per wallet (Rz. 61): each wallet's units are their own.
    super(input, 'wallet');
  }

  private year(day: string): Year {
    const y = Number(day.slice(0, 4));
    let t = this.years.get(y);
    if (!t) this.years.set(y, (t = { gains: 0n, losses: 0n, income: 0n }));
    return t;
  }

  protected disposal(l: DisposalLine): ReportLine {
    const day = l.tx.timestamp.slice(0, 10);
    const exempt = l.term === 'long';
    const gain = l.gainCents;
    if (gain !== null) {
      if (exempt) this.taxFree += gain;
      else if (gain > 0n) this.year(day).gains += gain;
      else this.year(day).losses -= gain;
    }
    return {
      type: 'private_sale',
      asset: l.asset.symbol,
      quantity: quantityOfLine(l),
      date_acquired: l.acquired?.at.slice(0, 10) ?? null,
      date_sold: day,
      proceeds: grossProceeds(l),
      cost: l.costCents,
      fees: l.feeCents ?? 0n,
      gain_loss: gain,
      // Held more than one year (§ 23 Abs. 1 Satz 1 Nr. 2): listed, not taxed.
      holding: l.acquired === null ? null : exempt ? 'more than one year (tax-free)' : 'one year or less',
      wallet: l.tx.wallet_label,
      note: disposalNote(l),
    };
  }

  protected income(l: IncomeLine): ReportLine {
    const day = l.tx.timestamp.slice(0, 10);
    if (l.valueCents !== null) this.year(day).income += l.valueCents;
    return {
      type: 'other_income',
      asset: l.asset.symbol,
      quantity: quantityOfLine(l),
      date_acquired: day,
      date_sold: null,
      proceeds: l.valueCents,
      cost: null,
      fees: null,
      gain_loss: l.valueCents,
      holding: null,
      wallet: l.tx.wallet_label,
      note: [l.tags.join('; '), l.valueCents === null ? 'no fiat value' : ''].filter(Boolean).join('; ') || null,
    };
  }

  totals(): ReportTotal[] {
    let gains = 0n;
    let losses = 0n;
    let taxable = 0n;
    let loss = 0n;
    let income = 0n;
    let incomeTaxable = 0n;
    let last = 0;
    for (const [y, t] of [...this.years].sort((a, b) => a[0] - b[0])) {
      gains += t.gains;
      losses += t.losses;
      const net = t.gains - t.losses;
      const limit = privateSaleLimit(y);
      last = y;
      // A Freigrenze: the whole net gain once it reaches the limit, nothing below it; a net loss is carried.
      if (net >= limit) taxable += net;
      else if (net < 0n) loss -= net;
      income += t.income;
      if (t.income >= OTHER_INCOME_LIMIT) incomeTaxable += t.income;
    }
    return [
      { key: 'private_sales_gains', label: 'Private sales within one year: gains', value: gains, kind: 'money' },
      { key: 'private_sales_losses', label: 'Private sales within one year: losses', value: losses, kind: 'money' },
      { key: 'private_sales_net', label: 'Private sales within one year: net gain (loss)', value: gains - losses, kind: 'money' },
      // The limit of the report's (last) year; a report of several years applies each year's to that year.
      {
        key: 'private_sales_limit',
        label: `Exemption limit (Freigrenze, § 23 (3) EStG)${last ? ` of ${last}` : ''}`,
        value: last ? privateSaleLimit(last) : 0n,
        kind: 'money',
      },
      { key: 'private_sales_taxable', label: 'Private sales: taxable gain', value: taxable, kind: 'money' },
      { key: 'private_sales_loss', label: 'Private sales: loss to carry (§ 23 (3) EStG)', value: loss, kind: 'money' },
      { key: 'tax_free_gains', label: 'Held more than one year: gain (loss), tax-free', value: this.taxFree, kind: 'money' },
      { key: 'other_income', label: 'Other income (§ 22 Nr. 3 EStG: staking, lending)', value: income, kind: 'money' },
      { key: 'other_income_taxable', label: 'Other income: taxable (256 € limit reached)', value: incomeTaxable, kind: 'money' },
    ];
  }
}

export const de: Jurisdiction = {
  code: 'de',
  name: JURISDICTION_NAME.de,
  currency: JURISDICTION_CURRENCY.de,
  methods: JURISDICTION_METHODS.de,
  taxYear: (year) => taxYearRange('de', year),
  taxYearOf: (day) => taxYearOf('de', day),
  columns: DE_COLUMNS,
  report: (input) => new DeReport(input),
};
