/**
 * A jurisdiction's report made of lots (de, au: docs/jurisdictions.md): the tax ledger
 * (tax-ledger.ts) with the method and scope the country's law sets, each of its lines turned
 * into the country's line. The ledger does what a row does to lots (own transfers carry lots and
 * their dates, fees join the trade they paid for, specific identification takes the picks), so a
 * country's module only says what its lines and totals are.
 */
import type { BasisScope } from '../../core/export-values.js';
import { quantityText } from '../quantity.js';
import { type DisposalLine, type IncomeLine, TaxLedger, type TaxLine } from '../tax-ledger.js';
import type { JurisdictionReport, ReportInput, ReportLine, ReportTotal } from './types.js';

export abstract class LotsReport implements JurisdictionReport {
  private readonly ledger: TaxLedger;

  constructor(input: ReportInput, scope: BasisScope) {
    this.ledger = new TaxLedger({
      method: input.method,
      scope,
      assets: input.assets,
      feeTreatment: 'adjust',
      ...(input.books ? { walletOrder: input.books.walletOrder, picks: input.books.picks } : {}),
    });
  }

  add(row: Parameters<TaxLedger['add']>[0], reported: boolean): ReportLine[] {
    return this.lines(this.ledger.add(row, reported));
  }

  end(): ReportLine[] {
    return this.lines(this.ledger.end());
  }

  private lines(lines: TaxLine[]): ReportLine[] {
    const out: ReportLine[] = [];
    for (const l of lines) {
      const line = l.kind === 'disposal' ? this.disposal(l) : this.income(l);
      if (line) out.push(line);
    }
    return out;
  }

  /** The country's line of one disposed lot piece (and its share in the totals). */
  protected abstract disposal(l: DisposalLine): ReportLine | null;
  /** The country's line of an income row, or null where its report has none. */
  protected abstract income(l: IncomeLine): ReportLine | null;
  abstract totals(): ReportTotal[];
}

/** The proceeds before the fee the ledger took from them (a sale's fee is a cost of the sale). */
export const grossProceeds = (l: DisposalLine): bigint | null => (l.proceedsCents === null ? null : l.proceedsCents + (l.feeCents ?? 0n));

export const quantityOfLine = (l: DisposalLine | IncomeLine) => quantityText(l.quantity);

/** What the ledger could not know, in words (docs/accounting.md "Reports"). */
export function disposalNote(l: DisposalLine): string | null {
  const notes: string[] = [];
  if (l.acquired === null) notes.push(`missing cost basis ${quantityText(l.quantity)}`);
  if (l.proceedsCents === null) notes.push('no fiat value');
  if (l.note) notes.push(l.note);
  return notes.length ? notes.join('; ') : null;
}
