/**
 * The United Kingdom (docs/jurisdictions.md "uk"): tax year 6 April – 5 April, GBP,
 * every wallet pooled per asset and matched by uk-matching.ts (same day, 30 days, Section 104), the
 * lines one per asset and day of disposal, the totals those of the SA108 cryptoasset boxes.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { LedgerRow } from '../ledger-row.js';
import { quantityText } from '../quantity.js';
import type { Jurisdiction, JurisdictionReport, ReportInput, ReportLine, ReportTotal } from './types.js';
import { SecondRows, type SecondRow } from './seconds.js';
import { UkAssetBook, type UkDisposal } from './uk-matching.js';
import { PoolBooks } from './pool-books.js';

export const UK_COLUMNS = ['date_sold', 'asset', 'quantity', 'proceeds', 'allowable_cost', 'gain_loss', 'matched', 'note'] as const;

function noteOf(d: UkDisposal): string | null {
  const notes: string[] = [];
  if (d.missing) notes.push(`missing cost basis ${quantityText(d.missing)}`);
  if (d.unpricedCost) notes.push('acquisition without fiat value');
  if (d.unpricedProceeds) notes.push('no fiat value');
  return notes.length ? notes.join('; ') : null;
}

class UkReport implements JurisdictionReport {
  private readonly books: PoolBooks<UkAssetBook>;
  private readonly seconds = new SecondRows(true);
  private count = 0;
  private proceeds = 0n;
  private costs = 0n;
  private gains = 0n;
  private losses = 0n;

  constructor(input: ReportInput) {
    this.books = new PoolBooks(input.assets, () => new UkAssetBook());
  }

  add(row: LedgerRow, reported: boolean): ReportLine[] {
    for (const r of this.seconds.add(row, reported)) this.take(r);
    return [];
  }

  private take({ tx, reported, fee, value }: SecondRow): void {
    // Own transfers move tokens between wallets of one pool: nothing happens. Approvals move nothing.
    const m = this.books.move(tx);
    if (!m) return;
    const { book, q, day } = m;
    // A fee paid for the trade is an allowable cost (TCGA 1992 s 38(1)(a), (c)): of the acquisition, or of the disposal.
    if (tx.direction === 'inflow') book.acquire(day, q, value === null ? null : value + fee);
    else book.dispose(day, q, value, reported, fee);
  }

  end(): ReportLine[] {
    for (const r of this.seconds.end()) this.take(r);
    const lines: { day: string; symbol: string; line: ReportLine }[] = [];
    for (const { asset, book } of this.books.values()) {
      for (const d of book.match()) {
        if (!d.reported) continue;
        this.count++;
        this.proceeds += d.proceedsCents;
        this.costs += d.costCents;
        if (d.gainCents > 0n) this.gains += d.gainCents;
        else this.losses -= d.gainCents;
        lines.push({
          day: d.day,
          symbol: asset.symbol,
          line: {
            date_sold: d.day,
            asset: asset.symbol,
            quantity: quantityText(d.quantity),
            proceeds: d.proceedsCents,
            allowable_cost: d.costCents,
            gain_loss: d.gainCents,
            matched: d.rules.join('+'),
            note: noteOf(d),
          },
        });
      }
    }
    lines.sort((a, b) => (a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
    return lines.map((l) => l.line);
  }

  totals(): ReportTotal[] {
    return [
      { key: 'disposals', label: 'Number of disposals', value: this.count, kind: 'count' },
      { key: 'disposal_proceeds', label: 'Disposal proceeds', value: this.proceeds, kind: 'money' },
      { key: 'allowable_costs', label: 'Allowable costs (including purchase price)', value: this.costs, kind: 'money' },
      { key: 'gains', label: 'Gains in the year, before losses', value: this.gains, kind: 'money' },
      { key: 'losses', label: 'Losses in the year', value: this.losses, kind: 'money' },
    ];
  }
}

export const uk: Jurisdiction = {
  code: 'uk',
  name: JURISDICTION_NAME.uk,
  currency: JURISDICTION_CURRENCY.uk,
  // Pooling is the law (TCGA 1992 ss104–106A): no choice of lots.
  methods: JURISDICTION_METHODS.uk,
  taxYear: (year) => taxYearRange('uk', year),
  taxYearOf: (day) => taxYearOf('uk', day),
  columns: UK_COLUMNS,
  report: (input) => new UkReport(input),
};
