/**
 * The tax and income reports as CSV or JSON (docs/accounting.md "Reports"): the tax
 * ledger's lines streamed into the file, one row per disposed lot (tax) or per income (income),
 * with their totals. CSV text follows the transaction CSV's rules (csv-text.ts).
 */
import { centsToNumber, centsToString } from '../core/money.js';
import { publicChain } from '../core/chains.js';
import { quantityText } from '../accounting/quantity.js';
import { TaxLedger, type DisposalLine, type IncomeLine, type LedgerRow, type TaxLine } from '../accounting/tax-ledger.js';
import { taxOptionsOf } from './tax-options.js';
import { TaxTotals } from '../accounting/totals.js';
import { OFF_THREAD_ROWS, writeChunked, type OutFile } from './chunked-file.js';
import { csvCell, csvLine } from './csv-text.js';
import type { ExportJob, ExportWriter } from './types.js';
import { assetLabel } from '../accounting/assets.js';

export const TAX_COLUMNS = [
  'description',
  'date_acquired',
  'date_sold',
  'proceeds',
  'cost_basis',
  'gain_loss',
  'term',
  'wallet_label',
  'chain',
  'token',
  'quantity',
  'acquired_transaction_id',
  'disposed_transaction_id',
  'note',
] as const;
export const INCOME_COLUMNS = ['date', 'wallet_label', 'chain', 'token', 'quantity', 'fair_value', 'tag', 'transaction_id'] as const;

/** A cell: text, money as cents (2 decimals in CSV, a number in JSON), or empty (null in JSON). */
export type Cell = string | bigint | null;
export type Row = Record<string, Cell>;

/** Columns whose text never needs csvCell's work: days, canonical unsigned quantities, the term and note words (money is cents). */
const PLAIN_COLUMNS = new Set(['date_acquired', 'date_sold', 'date', 'quantity', 'term', 'note']);
/** Text columns of few distinct values, escaped once per value. */
const REPEATED_COLUMNS = new Set(['wallet_label', 'chain', 'token', 'tag', 'asset', 'matched']);

const PROGRESS_EVERY = 1000;
const day = (timestamp: string) => timestamp.slice(0, 10);

function taxRow(l: DisposalLine): Row {
  const quantity = quantityText(l.quantity);
  return {
    description: `${quantity} ${assetLabel(l.asset)}`,
    date_acquired: l.acquired && day(l.acquired.at),
    date_sold: day(l.tx.timestamp),
    proceeds: l.proceedsCents,
    cost_basis: l.costCents,
    gain_loss: l.gainCents,
    term: l.term,
    wallet_label: l.tx.wallet_label,
    chain: publicChain(l.tx.chain),
    token: l.tx.token.symbol,
    quantity,
    // biome-ignore lint/complexity/useOptionalChain: null, not undefined, when no lot was acquired
    acquired_transaction_id: l.acquired && l.acquired.id,
    disposed_transaction_id: l.tx.id,
    note: noteOf(l),
  };
}

/** The line's notes, joined: missing cost basis or no fiat value, then specific identification's. */
function noteOf(l: DisposalLine): string | null {
  const base = l.acquired === null ? 'missing cost basis' : l.proceedsCents === null ? 'no fiat value' : null;
  if (!l.note) return base;
  return base === null ? l.note : `${base}; ${l.note}`;
}

function incomeRow(l: IncomeLine): Row {
  return {
    date: day(l.tx.timestamp),
    wallet_label: l.tx.wallet_label,
    chain: publicChain(l.tx.chain),
    token: l.tx.token.symbol,
    quantity: quantityText(l.quantity),
    fair_value: l.valueCents,
    tag: l.tags.join('; '),
    transaction_id: l.tx.id,
  };
}

/** The totals as [label, JSON key, value, the CSV column holding it]. */
function totalsOf(report: 'tax' | 'income', t: TaxTotals): [string, string, bigint | number, string][] {
  if (report === 'income') {
    return [
      ['Total income', 'total_income', t.incomeCents, 'fair_value'],
      ['Income rows', 'rows', t.incomeRows, 'fair_value'],
    ];
  }
  return [
    ['Short-term gain', 'short_term_gain', t.byTerm.short.gainCents, 'gain_loss'],
    ['Long-term gain', 'long_term_gain', t.byTerm.long.gainCents, 'gain_loss'],
    ['Total gain', 'total_gain', t.total.gainCents, 'gain_loss'],
    ['Missing cost basis rows', 'missing_cost_basis_rows', t.missingRows, 'gain_loss'],
  ];
}

interface Format {
  start(file: OutFile): void;
  row(row: Row, first: boolean): string;
  end(file: OutFile, totals: TaxTotals): void;
}

function csvFormat(job: ExportJob, report: 'tax' | 'income', columns: readonly string[]): Format {
  return {
    start: (file) => file.add(csvLine([...columns])),
    row: csvRowWriter(columns),
    end: (file, totals) => {
      if (!job.options.include_summary) return;
      file.add(csvLine(columns.map(() => '')));
      for (const [label, , value, column] of totalsOf(report, totals)) {
        file.add(csvLine(columns.map((c, i) => (i === 0 ? label : c === column ? csvText(typeof value === 'bigint' ? value : String(value)) : ''))));
      }
      // Findings that make the figures incomplete, one summary row each (docs/periods.md, "Report notes").
      for (const note of job.notes?.() ?? []) file.add(csvLine(columns.map((_, i) => (i === 0 ? `Note: ${note.message}` : ''))));
    },
  };
}

function jsonFormat(job: ExportJob, report: 'tax' | 'income'): Format {
  const key = report === 'tax' ? 'lots' : 'income';
  return {
    start: (file) => {
      const meta = { id: job.exportId, format: job.format, report_type: report, created_at: job.createdAt, filters: job.filters, options: job.options };
      file.add(`{"export":${JSON.stringify(meta)},${JSON.stringify(key)}:[`);
    },
    row: (row, first) => `${first ? '' : ','}\n${JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? centsToNumber(Number(v)) : v))}`,
    end: (file, totals) => {
      const entries = totalsOf(report, totals).map(([, name, value]) => [name, typeof value === 'bigint' ? centsToNumber(Number(value)) : value]);
      const notes = (job.notes?.() ?? []).map(({ kind, count, message }) => ({ kind, count, message }));
      file.add(`\n]${job.options.include_summary ? `,"totals":${JSON.stringify(Object.fromEntries(entries))}` : ''},"notes":${JSON.stringify(notes)}}\n`);
    },
  };
}

/**
 * A row's CSV line, as csvLine makes it but cheaper (a third of the tax CSV's text time): money
 * (`-?digits.dd`, a number csvCell leaves alone) and the PLAIN_COLUMNS go as they are, and
 * REPEATED_COLUMNS are escaped once per value.
 */
export function csvRowWriter(columns: readonly string[]): (row: Row) => string {
  const cells = columns.map((c): ((cell: Cell) => string) => {
    if (PLAIN_COLUMNS.has(c)) return csvText;
    if (!REPEATED_COLUMNS.has(c)) return (cell) => (typeof cell === 'bigint' ? centsToString(cell) : csvCell(csvText(cell)));
    const escaped = new Map<string, string>();
    return (cell) => {
      const text = csvText(cell);
      let out = escaped.get(text);
      if (out === undefined) escaped.set(text, (out = csvCell(text)));
      return out;
    };
  });
  return (row) => {
    const out = new Array<string>(columns.length);
    for (let i = 0; i < columns.length; i++) out[i] = cells[i]!(row[columns[i]!] ?? null);
    return `${out.join(',')}\r\n`;
  };
}

export function csvText(cell: Cell): string {
  return cell === null ? '' : typeof cell === 'bigint' ? centsToString(cell) : cell;
}

/**
 * The job's ledger rows, in groups as they come: read by the file's worker in the job's snapshot
 * when it can (the lots are computed here meanwhile), else by this thread.
 */
export async function* ledgerGroups(job: ExportJob, file: OutFile): AsyncGenerator<Iterable<{ tx: LedgerRow; reported: boolean }>> {
  const source = job.ledgerSource;
  const batches = source?.snapshot && file.ledgerBatches ? await file.ledgerBatches(source.read, source.snapshot.unchanged) : null;
  if (batches === null) {
    yield job.ledgerRows();
    return;
  }
  for await (const batch of batches) yield source!.decode(batch);
  if (source!.rest) yield source!.rest();
}

/** What a report made of the ledger's rows writes: its head, the text of each row's lines, its tail. */
export interface LedgerReport {
  start(file: OutFile): void;
  /** The text of the lines `tx` yields (may be none). */
  lines(tx: LedgerRow, reported: boolean): string[];
  /** May be async: a report that writes its rows at the end flushes as it goes. */
  end(file: OutFile): void | Promise<void>;
}

/**
 * Streams the job's ledger rows through `report` into the file: on the file's worker where the
 * history is large (the rows the lots come from count, not only the report's: a year's report
 * reads all history), with progress by the rows the filter selects.
 */
export async function writeLedgerReport(job: ExportJob, destPath: string, report: LedgerReport, opts: { digestOnly?: boolean } = {}) {
  let seen = 0;
  const offThread = job.transactionCount >= OFF_THREAD_ROWS || job.ledgerSource?.hasRows(OFF_THREAD_ROWS) === true;
  const written = await writeChunked(
    destPath,
    async (file) => {
      report.start(file);
      for await (const group of ledgerGroups(job, file)) {
        for (const { tx, reported } of group) {
          if (reported && ++seen % PROGRESS_EVERY === 0) job.onProgress(seen);
          const texts = report.lines(tx, reported);
          for (let i = 0; i < texts.length; i++) if (file.add(texts[i]!)) await file.flush();
        }
      }
      await report.end(file);
    },
    { offThread, digestOnly: opts.digestOnly, ...(offThread && job.ledgerSource?.snapshot ? { ledger: job.ledgerSource.snapshot.path } : {}) },
  );
  job.onProgress(seen);
  return written;
}

/**
 * What a report made of the tax ledger's lines writes: its head, the text of a batch of lines
 * (those `TaxLedger.add` or `end` answered), its tail. Any run of the ledger over the job's rows
 * may feed it (a close feeds three from one run: exporters/period-reports.ts).
 */
export interface LinesReport {
  start(file: OutFile): void;
  texts(lines: TaxLine[]): string[];
  end(file: OutFile): void | Promise<void>;
}

/** A LinesReport fed by a tax ledger of its own, with the job's options. */
export function ownLedger(job: ExportJob, report: LinesReport): LedgerReport {
  const ledger = new TaxLedger(taxOptionsOf(job));
  return {
    start: (file) => report.start(file),
    lines: (tx, reported) => report.texts(ledger.add(tx, reported)),
    // The ledger holds back the rows of its last second (docs/accounting.md "Order within one second").
    end: async (file) => {
      for (const text of report.texts(ledger.end())) if (file.add(text)) await file.flush();
      await report.end(file);
    },
  };
}

/** The tax or income report (`report_type` `tax` or `income`, CSV or JSON) of the lines it is fed. */
export function taxLinesReport(job: ExportJob): LinesReport {
  const report = job.reportType === 'income' ? 'income' : 'tax';
  const kind = report === 'tax' ? 'disposal' : 'income';
  const format = job.format === 'json' ? jsonFormat(job, report) : csvFormat(job, report, report === 'tax' ? TAX_COLUMNS : INCOME_COLUMNS);
  const totals = new TaxTotals();
  let rows = 0;
  const none: string[] = [];
  return {
    start: (file) => format.start(file),
    /** The rows of the report's kind among `lines`, as file text; every line counts in the totals. */
    texts: (lines) => {
      if (lines.length === 0) return none;
      const out: string[] = [];
      for (const line of lines) {
        totals.add(line);
        if (line.kind !== kind) continue;
        out.push(format.row(line.kind === 'disposal' ? taxRow(line) : incomeRow(line), rows++ === 0));
      }
      return out;
    },
    end: (file) => format.end(file, totals),
  };
}

/** `report_type` `tax` or `income` of a CSV or JSON export. */
export const writeTaxReport: ExportWriter = (job, destPath) => writeLedgerReport(job, destPath, ownLedger(job, taxLinesReport(job)));
