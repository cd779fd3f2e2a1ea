/**
 * The disposals as Form 8949 lines (docs/accounting.md "Form 8949, 1099-DA and the roll-forward"):
 * each disposed lot of the tax ledger with its part, box and columns (d)–(h), its disposal
 * matched to a broker line where one is imported. The `form8949`, `turbotax`, `taxact` and
 * `reconciliation` reports (and the Form 8949 PDF) all read this stream.
 */
import { addQuantity, upscale, ZERO, type Quantity } from '../accounting/quantity.js';
import { TaxLedger, type DisposalLine, type LedgerRow, type TaxLine } from '../accounting/tax-ledger.js';
import { boxOf, brokerShare, BrokerMatcher, columnsOf, partOf, type Box, type BrokerLine, type Columns, type Part } from '../accounting/form8949.js';
import { taxOptionsOf } from './tax-options.js';
import type { ExportJob } from './types.js';

/** One disposed lot as the form shows it. */
export interface FormPiece {
  line: DisposalLine;
  part: Part;
  box: Box;
  columns: Columns;
  /** The broker line its disposal matched, or null. */
  match: BrokerLine | null;
}

/** One disposal (the pieces of one row): its broker line and its pieces. */
export interface FormDisposal {
  tx: LedgerRow;
  quantity: Quantity;
  match: BrokerLine | null;
  pieces: FormPiece[];
}

/**
 * The job's broker lines matched against its disposals, as they come. The ledger holds back the
 * rows of one second (docs/accounting.md "Order within one second"): `add` answers the disposals
 * of the seconds it completed, `end` the last's, so every caller takes `end()`'s too.
 */
export class FormLines {
  readonly matcher: BrokerMatcher;
  /** Its own ledger, for `add` and `end` (made at the first; `disposals` takes another run's lines). */
  private ledgerOwn: TaxLedger | undefined;
  /** By wallet id, asked once per wallet (a read of its row). */
  private readonly selfCustody = new Map<string, boolean>();

  constructor(private readonly job: ExportJob) {
    this.matcher = new BrokerMatcher(job.brokerLines());
  }

  private get ledger(): TaxLedger {
    return (this.ledgerOwn ??= new TaxLedger(taxOptionsOf(this.job)));
  }

  /** Feeds one ledger row: the reported disposals of the seconds before it, each with its pieces (mostly none). */
  add(tx: LedgerRow, reported: boolean): FormDisposal[] {
    return this.disposals(this.ledger.add(tx, reported));
  }

  /** After the last row: the disposals of the last second. */
  end(): FormDisposal[] {
    return this.disposals(this.ledger.end());
  }

  /** The reported disposals among a tax ledger's lines (as `add` or `end` answered them), each with its pieces. */
  disposals(lines: TaxLine[]): FormDisposal[] {
    if (lines.length === 0) return [];
    const out: FormDisposal[] = [];
    let group: DisposalLine[] = [];
    const flush = () => {
      if (group.length > 0) out.push(this.disposal(group));
      group = [];
    };
    for (const l of lines) {
      if (l.kind !== 'disposal') continue;
      if (group.length > 0 && group[0]!.tx !== l.tx) flush();
      group.push(l);
    }
    flush();
    return out;
  }

  private disposal(lines: DisposalLine[]): FormDisposal {
    const tx = lines[0]!.tx;
    let quantity = ZERO;
    for (const l of lines) quantity = addQuantity(quantity, l.quantity);
    const day = tx.timestamp.slice(0, 10);
    const match = this.matcher.take(tx.wallet_id, day, lines[0]!.asset.symbol, quantity);
    let selfCustody = this.selfCustody.get(tx.wallet_id);
    if (selfCustody === undefined) this.selfCustody.set(tx.wallet_id, (selfCustody = this.job.selfCustody(tx.wallet_id)));
    let before = 0n;
    const pieces = lines.map((line): FormPiece => {
      const part = partOf(line.term);
      const units = upscale(line.quantity.units, line.quantity.scale, quantity.scale);
      const broker = match && brokerShare(match, before, before + units, quantity.units);
      before += units;
      return {
        line,
        part,
        box: boxOf(day, part, match, selfCustody),
        columns: columnsOf({ proceeds: line.proceedsCents, cost: line.costCents, broker }),
        match,
      };
    });
    return { tx, quantity, match, pieces };
  }
}

/** Totals of one box: columns (d), (e), (g), (h) and its rows. */
export interface BoxTotals {
  part: Part;
  box: Box;
  rows: number;
  proceeds: bigint;
  basis: bigint;
  adjustment: bigint;
  gain: bigint;
}

export class BoxTotalsBook {
  private readonly boxes = new Map<Box, BoxTotals>();

  add(p: FormPiece): void {
    let t = this.boxes.get(p.box);
    if (!t) this.boxes.set(p.box, (t = { part: p.part, box: p.box, rows: 0, proceeds: 0n, basis: 0n, adjustment: 0n, gain: 0n }));
    t.rows++;
    t.proceeds += p.columns.proceeds ?? 0n;
    t.basis += p.columns.basis ?? 0n;
    t.adjustment += p.columns.adjustment ?? 0n;
    t.gain += p.columns.gain ?? 0n;
  }

  /** In the form's order: Part I's boxes, then Part II's, each alphabetical. */
  list(): BoxTotals[] {
    return [...this.boxes.values()].sort((a, b) => (a.part === b.part ? a.box.localeCompare(b.box) : a.part === 'I' ? -1 : 1));
  }
}
