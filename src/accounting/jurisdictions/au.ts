/**
 * Australia (docs/jurisdictions.md "au"): tax year 1 July – 30 June, AUD, lots of every wallet in
 * one pool per asset taken FIFO or by specific identification. A gain on units held at least
 * 12 months (the days of acquisition and of the CGT event not counted) takes the 50 % CGT discount
 * (ITAA 1997 Div 115), applied after the year's capital losses, which reduce the gains without the
 * discount first. The totals are those of item 18 of the return.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { DisposalLine } from '../tax-ledger.js';
import { disposalNote, grossProceeds, LotsReport, quantityOfLine } from './lots-report.js';
import type { Jurisdiction, ReportInput, ReportLine, ReportTotal } from './types.js';

export const AU_COLUMNS = [
  'date_acquired',
  'date_sold',
  'asset',
  'quantity',
  'capital_proceeds',
  'cost_base',
  'gain_loss',
  'discount_eligible',
  'wallet',
  'note',
] as const;

/** Net capital gain of a year from its gains with and without the discount and its losses (ATO "Working out your net capital gain or loss"). */
export function netCapitalGain(discountable: bigint, other: bigint, losses: bigint) {
  // Losses go first against the gains the discount does not reduce (the order the ATO lets the taxpayer choose, the one that leaves most discount).
  const fromOther = losses < other ? losses : other;
  const left = losses - fromOther;
  const fromDiscountable = left < discountable ? left : discountable;
  const remaining = discountable - fromDiscountable;
  // Half of the rest, the half cent (if any) going to the taxpayer's side of the discount rounded down.
  const discount = remaining / 2n;
  return {
    discount,
    net: other - fromOther + remaining - discount,
    carried: left - fromDiscountable,
  };
}

class AuReport extends LotsReport {
  private discountable = 0n;
  private other = 0n;
  private losses = 0n;

  constructor(input: ReportInput) {
    // Units are identified across the taxpayer's holdings: one pool per asset, in the method's order.
    super(input, 'universal');
  }

  protected disposal(l: DisposalLine): ReportLine {
    const eligible = l.term === 'long';
    const gain = l.gainCents;
    if (gain !== null) {
      if (gain < 0n) this.losses -= gain;
      else if (eligible) this.discountable += gain;
      else this.other += gain;
    }
    const fee = l.feeCents ?? 0n;
    return {
      date_acquired: l.acquired?.at.slice(0, 10) ?? null,
      date_sold: l.tx.timestamp.slice(0, 10),
      asset: l.asset.symbol,
      quantity: quantityOfLine(l),
      capital_proceeds: grossProceeds(l),
      // A disposal's fee is an incidental cost, part of the cost base (ITAA 1997 s 110-25(2)).
      cost_base: l.costCents === null ? null : l.costCents + fee,
      gain_loss: gain,
      discount_eligible: l.acquired === null ? null : eligible ? 'yes' : 'no',
      wallet: l.tx.wallet_label,
      note: disposalNote(l),
    };
  }

  // Staking and other crypto income is ordinary income: the income report has it, not the CGT lines.
  protected income(): null {
    return null;
  }

  totals(): ReportTotal[] {
    const { discount, net, carried } = netCapitalGain(this.discountable, this.other, this.losses);
    return [
      { key: 'gross_gains', label: 'Total current year capital gains', value: this.discountable + this.other, kind: 'money' },
      { key: 'discountable_gains', label: 'of which held at least 12 months (discount eligible)', value: this.discountable, kind: 'money' },
      { key: 'losses', label: 'Capital losses', value: this.losses, kind: 'money' },
      { key: 'discount', label: 'CGT discount (50 %)', value: discount, kind: 'money' },
      { key: 'net_capital_gain', label: 'Net capital gain', value: net, kind: 'money' },
      { key: 'net_capital_loss', label: 'Net capital losses carried forward to later income years', value: carried, kind: 'money' },
    ];
  }
}

export const au: Jurisdiction = {
  code: 'au',
  name: JURISDICTION_NAME.au,
  currency: JURISDICTION_CURRENCY.au,
  methods: JURISDICTION_METHODS.au,
  taxYear: (year) => taxYearRange('au', year),
  taxYearOf: (day) => taxYearOf('au', day),
  columns: AU_COLUMNS,
  report: (input) => new AuReport(input),
};
