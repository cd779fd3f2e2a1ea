/**
 * `form8949`, `turbotax`, `taxact` (CSV) and `reconciliation` (CSV, JSON): the disposals as the
 * form, the tax-software files and the broker reconciliation show them (docs/reports.md "Form
 * 8949 and tax software", docs/accounting.md "Form 8949, 1099-DA and the roll-forward"). One
 * pass over the ledger; rows in date order, totals at the end.
 */
import { centsToNumber } from '../core/money.js';
import { quantityText } from '../accounting/quantity.js';
import { formDate, type BrokerLine } from '../accounting/form8949.js';
import type { OutFile } from './chunked-file.js';
import { csvLine } from './csv-text.js';
import { BoxTotalsBook, FormLines, type FormDisposal, type FormPiece } from './disposal-forms.js';
import { csvRowWriter, csvText, ownLedger, writeLedgerReport, type LinesReport, type Row } from './tax-report.js';
import type { ExportJob, ExportWriter } from './types.js';
import { assetLabel } from '../accounting/assets.js';

export const FORM8949_COLUMNS = [
  'part',
  'box',
  'description',
  'date_acquired',
  'date_sold',
  'proceeds',
  'cost_basis',
  'adjustment_code',
  'adjustment',
  'gain_loss',
  'wallet_label',
  'disposed_transaction_id',
] as const;

/** TurboTax's CSV of crypto sales for a source it does not support (docs/reports.md names the source). */
export const TURBOTAX_COLUMNS = ['Currency Name', 'Purchase Date', 'Cost Basis', 'Date Sold', 'Proceeds'] as const;

/** TaxAct's "create your own spreadsheet" CSV for Form 1099-B/8949 lines (docs/reports.md names the source). */
export const TAXACT_COLUMNS = [
  'Description',
  'Date Acquired',
  'Date Sold',
  'Sales Proceeds',
  'Cost or Other Basis',
  'Adjustment Code',
  'Adjustment Amount',
  'Reporting Category',
] as const;

export const RECONCILIATION_COLUMNS = [
  'status',
  'wallet_label',
  'date_sold',
  'asset',
  'units',
  'broker_line',
  'broker_proceeds',
  'broker_cost_basis',
  'basis_reported',
  'disposed_transaction_id',
  'txa_quantity',
  'txa_proceeds',
  'txa_cost_basis',
  'proceeds_difference',
  'basis_difference',
  'adjustment_code',
  'adjustment',
] as const;

const description = (p: FormPiece) => `${quantityText(p.line.quantity)} ${assetLabel(p.line.asset)}`;
const acquired = (p: FormPiece) => (p.line.acquired ? formDate(p.line.acquired.at) : null);
const sold = (p: FormPiece) => formDate(p.line.tx.timestamp);

function form8949Row(p: FormPiece): Row {
  const c = p.columns;
  return {
    part: p.part,
    box: p.box,
    description: description(p),
    date_acquired: acquired(p),
    date_sold: sold(p),
    proceeds: c.proceeds,
    cost_basis: c.basis,
    adjustment_code: c.code || null,
    adjustment: c.adjustment,
    gain_loss: c.gain,
    wallet_label: p.line.tx.wallet_label,
    disposed_transaction_id: p.line.tx.id,
  };
}

function turbotaxRow(p: FormPiece): Row {
  return {
    'Currency Name': p.line.asset.symbol,
    'Purchase Date': acquired(p),
    'Cost Basis': p.line.costCents,
    'Date Sold': sold(p),
    Proceeds: p.line.proceedsCents,
  };
}

function taxactRow(p: FormPiece): Row {
  const c = p.columns;
  return {
    Description: description(p),
    'Date Acquired': acquired(p),
    'Date Sold': sold(p),
    'Sales Proceeds': c.proceeds,
    'Cost or Other Basis': c.basis,
    'Adjustment Code': c.code || null,
    'Adjustment Amount': c.adjustment,
    'Reporting Category': p.box,
  };
}

/** A CSV of one row per disposed lot, with (form8949) a `Total` row per box, of the tax ledger's lines it is fed. */
function pieceLines(job: ExportJob, columns: readonly string[], rowOf: (p: FormPiece) => Row, totals: boolean): LinesReport {
  const form = new FormLines(job);
  const write = csvRowWriter(columns);
  const boxes = new BoxTotalsBook();
  const none: string[] = [];
  return {
    start: (file) => file.add(csvLine([...columns])),
    texts: (lines) => {
      const disposals = form.disposals(lines);
      if (disposals.length === 0) return none;
      const out: string[] = [];
      for (const d of disposals) {
        for (const p of d.pieces) {
          boxes.add(p);
          out.push(write(rowOf(p)));
        }
      }
      return out;
    },
    end: (file) => {
      if (!totals || !job.options.include_summary) return;
      file.add(csvLine(columns.map(() => '')));
      for (const t of boxes.list()) {
        file.add(
          write({
            part: t.part,
            box: t.box,
            description: `Total (${t.rows} row${t.rows === 1 ? '' : 's'})`,
            proceeds: t.proceeds,
            cost_basis: t.basis,
            adjustment: t.adjustment,
            gain_loss: t.gain,
          }),
        );
      }
    },
  };
}

/** The form8949 CSV of the lines it is fed (a close's digest shares one ledger run: exporters/period-reports.ts). */
export const form8949Lines = (job: ExportJob): LinesReport => pieceLines(job, FORM8949_COLUMNS, form8949Row, true);

function pieceCsv(job: ExportJob, columns: readonly string[], rowOf: (p: FormPiece) => Row, totals: boolean): ExportWriter {
  return (_, destPath) => writeLedgerReport(job, destPath, ownLedger(job, pieceLines(job, columns, rowOf, totals)));
}

/** A reconciliation row: a broker line with the disposal it matched, a line alone, or a disposal alone. */
/** The sum of the values, or null when any is null (a disposal's piece without proceeds or basis). */
function total(values: (bigint | null)[]): bigint | null {
  let sum = 0n;
  for (const v of values) {
    if (v === null) return null;
    sum += v;
  }
  return sum;
}

function reconciliationRow(line: BrokerLine | null, d: FormDisposal | null): Row {
  const pieces = d?.pieces ?? [];
  const proceeds = d ? total(pieces.map((p) => p.line.proceedsCents)) : null;
  const cost = d ? total(pieces.map((p) => p.line.costCents)) : null;
  const code = [...new Set(pieces.flatMap((p) => [...p.columns.code]))].sort().join('');
  const adjusted = pieces.filter((p) => p.columns.adjustment !== null);
  const adjustment = adjusted.length > 0 ? total(adjusted.map((p) => p.columns.adjustment)) : null;
  const diff = (a: bigint | null, b: bigint | null) => (a === null || b === null ? null : a - b);
  return {
    status: line && d ? 'matched' : line ? 'broker line only' : 'txa only',
    wallet_label: line ? line.wallet_label : d!.tx.wallet_label,
    date_sold: line ? line.date_sold : d!.tx.timestamp.slice(0, 10),
    asset: line ? line.asset : d!.pieces[0]!.line.asset.symbol,
    units: line ? line.units : quantityText(d!.quantity),
    broker_line: line ? String(line.line) : null,
    broker_proceeds: line ? line.proceeds_cents : null,
    broker_cost_basis: line ? line.cost_basis_cents : null,
    basis_reported: line ? String(line.basis_reported) : null,
    disposed_transaction_id: d ? d.tx.id : null,
    txa_quantity: d ? quantityText(d.quantity) : null,
    txa_proceeds: proceeds,
    txa_cost_basis: cost,
    proceeds_difference: line ? diff(proceeds, line.proceeds_cents) : null,
    basis_difference: line ? diff(cost, line.cost_basis_cents) : null,
    adjustment_code: code || null,
    adjustment,
  };
}

/** The rows of a reconciliation, as they come, and the broker lines left unmatched at the end. */
function reconciliation(
  job: ExportJob,
  start: (file: OutFile) => void,
  onRow: (row: Row) => string,
  end: (file: OutFile, counts: Record<string, number>) => void,
): ExportWriter {
  return (_, destPath) => {
    const form = new FormLines(job);
    const counts = { matched: 0, broker_line_only: 0, txa_only: 0 };
    const none: string[] = [];
    const { start: periodStart, end: periodEnd } = job.period;
    const texts = (disposals: FormDisposal[]) => {
      if (disposals.length === 0) return none;
      const out: string[] = [];
      for (const d of disposals) {
        if (d.match) counts.matched++;
        else if (form.matcher.wallets.has(d.tx.wallet_id)) counts.txa_only++;
        else continue;
        out.push(onRow(reconciliationRow(d.match, d)));
      }
      return out;
    };
    return writeLedgerReport(job, destPath, {
      start,
      lines: (tx, reported) => texts(form.add(tx, reported)),
      end: (file) => {
        // The ledger's last second first: its disposals may match broker lines.
        for (const text of texts(form.end())) file.add(text);
        for (const line of job.brokerLines()) {
          if (form.matcher.matched.has(line)) continue;
          if ((periodStart !== null && line.date_sold < periodStart) || (periodEnd !== null && line.date_sold > periodEnd)) continue;
          counts.broker_line_only++;
          file.add(onRow(reconciliationRow(line, null)));
        }
        end(file, counts);
      },
    });
  };
}

/**
 * The broker lines are matched in one pass, so the unmatched ones come last. The CSV and the
 * JSON are the same rows (status first); the JSON adds counts.
 */
function reconciliationWriter(job: ExportJob): ExportWriter {
  if (job.format === 'json') {
    let first = true;
    const head = { id: job.exportId, format: job.format, report_type: 'reconciliation', created_at: job.createdAt, filters: job.filters, options: job.options };
    const json = (row: Row) => {
      const text = `${first ? '' : ','}\n${JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? centsToNumber(Number(v)) : v))}`;
      first = false;
      return text;
    };
    return reconciliation(
      job,
      (file) => file.add(`{"export":${JSON.stringify(head)},"lines":[`),
      json,
      (file, counts) => file.add(`\n]${job.options.include_summary ? `,"totals":${JSON.stringify(counts)}` : ''}}\n`),
    );
  }
  const write = csvRowWriter(RECONCILIATION_COLUMNS);
  return reconciliation(
    job,
    (file) => file.add(csvLine([...RECONCILIATION_COLUMNS])),
    write,
    (file, counts) => {
      if (!job.options.include_summary) return;
      file.add(csvLine(RECONCILIATION_COLUMNS.map(() => '')));
      for (const [label, n] of Object.entries(counts)) {
        file.add(csvLine(RECONCILIATION_COLUMNS.map((c, i) => (i === 0 ? `Total ${label.replace(/_/g, ' ')}` : c === 'units' ? csvText(String(n)) : ''))));
      }
    },
  );
}

/** The writer of a `form8949`, `turbotax`, `taxact` or `reconciliation` table. */
export const writeFormReport: ExportWriter = (job, destPath) => {
  switch (job.reportType) {
    case 'turbotax':
      return pieceCsv(job, TURBOTAX_COLUMNS, turbotaxRow, false)(job, destPath);
    case 'taxact':
      return pieceCsv(job, TAXACT_COLUMNS, taxactRow, false)(job, destPath);
    case 'reconciliation':
      return reconciliationWriter(job)(job, destPath);
    default:
      return pieceCsv(job, FORM8949_COLUMNS, form8949Row, true)(job, destPath);
  }
};
