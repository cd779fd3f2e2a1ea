/**
 * Canada (docs/jurisdictions.md "ca"): calendar tax year, CAD, the adjusted cost base of each asset
 * across every wallet at average cost with superficial losses denied (ca-acb.ts), one line per
 * disposal, the totals of Schedule 3 with the taxable capital gain at the inclusion rate of each
 * disposal's date.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { Asset } from '../assets.js';
import { quantityText } from '../quantity.js';
import type { LedgerRow } from '../ledger-row.js';
import { type CaDisposal, CaAssetBook } from './ca-acb.js';
import { PoolBooks } from './pool-books.js';
import { SecondRows, type SecondRow } from './seconds.js';
import type { Jurisdiction, JurisdictionReport, ReportInput, ReportLine, ReportTotal } from './types.js';

export const CA_COLUMNS = ['date_sold', 'asset', 'quantity', 'proceeds', 'acb', 'outlays', 'gain_loss', 'superficial_loss_denied', 'note'] as const;

/**
 * The capital gains inclusion rate by the disposal's date (ITA s. 38): 3/4 to 27 February 2000,
 * 2/3 to 17 October 2000, 1/2 since. The 2/3 rate Budget 2024 proposed from 25 June 2024 (deferred
 * to 1 January 2026 on 31 January 2025) was cancelled on 21 March 2025 and never enacted: 1/2 applies.
 */
const INCLUSION: readonly { from: string; num: bigint; den: bigint }[] = [
  { from: '2000-10-18', num: 1n, den: 2n },
  { from: '2000-02-28', num: 2n, den: 3n },
  { from: '0000-01-01', num: 3n, den: 4n },
];

export function inclusionRate(day: string): { num: bigint; den: bigint } {
  return INCLUSION.find((r) => day >= r.from)!;
}

function noteOf(d: CaDisposal): string | null {
  const notes: string[] = [];
  if (d.missing) notes.push(`missing cost basis ${quantityText(d.missing)}`);
  if (d.unpricedCost) notes.push('acquisition without fiat value');
  if (d.unpricedProceeds) notes.push('no fiat value');
  if (d.deniedCents > 0n) notes.push('superficial loss');
  return notes.length ? notes.join('; ') : null;
}

/** `n × num / den`, rounded half away from zero to the cent. */
const times = (n: bigint, num: bigint, den: bigint) => {
  const x = n * num * 2n;
  const d = den * 2n;
  return x >= 0n ? (x + den) / d : -((-x + den) / d);
};

class CaReport implements JurisdictionReport {
  private readonly books: PoolBooks<CaAssetBook>;
  private readonly seconds = new SecondRows();
  /** Lines settled but not answered yet: a line goes out once every earlier row is settled, so they leave in row order. */
  private pending: { seq: number; line: ReportLine }[] = [];
  private seq = 0;
  private calls = 0;
  private count = 0;
  private proceeds = 0n;
  private acb = 0n;
  private outlays = 0n;
  private gains = 0n;
  private losses = 0n;
  private denied = 0n;
  /** Net gain by inclusion rate (`num/den`). */
  private readonly byRate = new Map<string, { num: bigint; den: bigint; net: bigint }>();
  private rateDay = '';
  private rateBucket: { num: bigint; den: bigint; net: bigint } | undefined;

  constructor(input: ReportInput) {
    this.books = new PoolBooks(input.assets, () => new CaAssetBook());
  }

  add(row: LedgerRow, reported: boolean): ReportLine[] {
    for (const r of this.seconds.add(row, reported)) this.take(r);
    // Now and then (not every row: it looks at every asset's book), answer what is settled.
    if (++this.calls % 1024 !== 0 || this.pending.length === 0) return [];
    // An asset with no recent row holds its last rows unsettled: time settles them too.
    const day = row.timestamp.slice(0, 10);
    for (const { asset, book } of this.books.values()) this.record(asset, book.advance(day));
    return this.release(this.watermark());
  }

  end(): ReportLine[] {
    for (const r of this.seconds.end()) this.take(r);
    for (const { asset, book } of this.books.values()) this.record(asset, book.end());
    return this.release(Number.POSITIVE_INFINITY);
  }

  /** The first row some book has not settled: every line before it is final. */
  private watermark(): number {
    let min = Number.POSITIVE_INFINITY;
    for (const { book } of this.books.values()) {
      const ref = book.unsettled as number | null;
      if (ref !== null && ref < min) min = ref;
    }
    return min;
  }

  private release(before: number): ReportLine[] {
    this.pending.sort((a, b) => a.seq - b.seq);
    let i = 0;
    while (i < this.pending.length && this.pending[i]!.seq < before) i++;
    const out = this.pending.slice(0, i).map((p) => p.line);
    this.pending = this.pending.slice(i);
    return out;
  }

  private take({ tx, reported, fee }: SecondRow): void {
    // Own transfers move units within the one pool; approvals move nothing.
    const m = this.books.move(tx);
    if (!m) return;
    const { asset, book, q, day } = m;
    const inflow = tx.direction === 'inflow';
    // An acquisition's fee is part of its cost (ACB); a disposal's is an outlay.
    const cents = tx.fiat_cents === null || !inflow || fee === 0n ? tx.fiat_cents : tx.fiat_cents + fee;
    const done = book.add(day, inflow, q, cents, inflow ? 0n : fee, reported, this.seq++);
    if (done.length > 0) this.record(asset, done);
  }

  /** The net-gain bucket of `day`'s inclusion rate (the last day's kept: disposals come in time order). */
  private rateOf(day: string): { num: bigint; den: bigint; net: bigint } {
    if (day !== this.rateDay || !this.rateBucket) {
      const rate = inclusionRate(day);
      const key = `${rate.num}/${rate.den}`;
      let bucket = this.byRate.get(key);
      if (!bucket) {
        bucket = { ...rate, net: 0n };
        this.byRate.set(key, bucket);
      }
      this.rateDay = day;
      this.rateBucket = bucket;
    }
    return this.rateBucket;
  }

  private record(asset: Asset, done: CaDisposal[]): void {
    for (const d of done) {
      if (!d.reported) continue;
      this.count++;
      this.proceeds += d.proceedsCents;
      this.acb += d.acbCents;
      this.outlays += d.outlaysCents;
      this.denied += d.deniedCents;
      if (d.gainCents > 0n) this.gains += d.gainCents;
      else this.losses -= d.gainCents;
      this.rateOf(d.day).net += d.gainCents;
      this.pending.push({
        seq: d.ref as number,
        line: {
          date_sold: d.day,
          asset: asset.symbol,
          quantity: quantityText(d.quantity),
          proceeds: d.proceedsCents,
          acb: d.acbCents,
          outlays: d.outlaysCents,
          gain_loss: d.gainCents,
          superficial_loss_denied: d.deniedCents,
          note: noteOf(d),
        },
      });
    }
  }

  totals(): ReportTotal[] {
    const net = this.gains - this.losses;
    let taxable = 0n;
    for (const b of this.byRate.values()) taxable += times(b.net, b.num, b.den);
    const rates = [...this.byRate.keys()];
    return [
      { key: 'dispositions', label: 'Number of dispositions', value: this.count, kind: 'count' },
      { key: 'proceeds', label: 'Proceeds of disposition', value: this.proceeds, kind: 'money' },
      { key: 'acb', label: 'Adjusted cost base', value: this.acb, kind: 'money' },
      { key: 'outlays', label: 'Outlays and expenses', value: this.outlays, kind: 'money' },
      { key: 'gains', label: 'Capital gains', value: this.gains, kind: 'money' },
      { key: 'losses', label: 'Capital losses (after superficial losses)', value: this.losses, kind: 'money' },
      { key: 'superficial_losses_denied', label: 'Superficial losses denied (added to the ACB)', value: this.denied, kind: 'money' },
      { key: 'net_capital_gain', label: 'Net capital gain (loss)', value: net, kind: 'money' },
      {
        key: 'inclusion_rate',
        label: `Inclusion rate${rates.length > 1 ? 's' : ''} (${rates.length ? rates.join(', ') : '1/2'})`,
        value: rates.length > 1 ? 0 : Number(this.byRate.values().next().value?.num ?? 1n) / Number(this.byRate.values().next().value?.den ?? 2n),
        kind: 'count',
      },
      { key: 'taxable_capital_gain', label: 'Taxable capital gain', value: taxable > 0n ? taxable : 0n, kind: 'money' },
      { key: 'net_capital_loss', label: 'Net capital loss (to carry over)', value: net < 0n ? -net : 0n, kind: 'money' },
    ];
  }
}

export const ca: Jurisdiction = {
  code: 'ca',
  name: JURISDICTION_NAME.ca,
  currency: JURISDICTION_CURRENCY.ca,
  // Identical properties are one pool at average cost (ITA s. 47): no choice of lots.
  methods: JURISDICTION_METHODS.ca,
  taxYear: (year) => taxYearRange('ca', year),
  taxYearOf: (day) => taxYearOf('ca', day),
  columns: CA_COLUMNS,
  report: (input) => new CaReport(input),
};
