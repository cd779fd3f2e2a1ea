/**
 * CSV exports (CONTRACT §6): RFC 4180, UTF-8, CRLF, the chosen columns in the given order, the
 * same column count on every row, OWASP formula escaping, optional `group` column and summary.
 * Hand-written rather than csv-stringify: 2.5× faster and our own escaping policy (libraries.md).
 */
import type { Transaction } from '../core/types.js';
import { centsToString } from '../core/money.js';
import type { CsvColumn, ExportJob, ExportWriter } from './types.js';
import { writeChunked } from './chunked-file.js';
import { formatDate } from './date-format.js';

const FORMULA_START = /^[=+\-@\t\r＝＋－＠]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;
const PROGRESS_EVERY = 1000;

/** One cell: a formula-like text gets a leading `'` (numbers stay numbers), then RFC 4180 quoting. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: string[]): string {
  // A lone empty cell is written as "" so the row is not read as a blank line and skipped.
  return cells.length === 1 && cells[0] === '' ? '""\r\n' : `${cells.map(csvCell).join(',')}\r\n`;
}

/** A fiat number from integer cents → fixed two decimals, never through float formatting. */
export function fiatText(value: number): string {
  return centsToString(Math.round(value * 100));
}

function cellOf(tx: Transaction, column: CsvColumn, dateFormat: string): string {
  switch (column) {
    case 'date':
      return formatDate(tx.timestamp, dateFormat);
    case 'token':
      return tx.token.symbol;
    case 'fiat_value':
      return tx.fiat_value === null ? '' : fiatText(tx.fiat_value);
    case 'tags':
      return tx.tags.map((t) => t.name).join('; ');
    case 'attachments':
      return tx.attachments.map((a) => a.file_name).join('; ');
    case 'notes':
      return tx.notes ?? '';
    default:
      return tx[column];
  }
}

/** The four summary rows after a row of empty cells: label first, value in `fiat_value` (else the second column). */
function summaryLines(job: ExportJob, header: string[]): string[] {
  const s = job.summary;
  const rows: [string, string][] = [
    ['Total inflow', fiatText(s.total_inflow)],
    ['Total outflow', fiatText(s.total_outflow)],
    ['Net flow', fiatText(s.net_flow)],
    ['Transaction count', String(s.transaction_count)],
  ];
  const width = header.length;
  const valueAt = header.indexOf('fiat_value') > 0 ? header.indexOf('fiat_value') : 1;
  const lines = [csvLine(Array<string>(width).fill(''))];
  for (const [label, value] of rows) {
    const cells = Array<string>(width).fill('');
    if (width === 1) cells[0] = `${label}: ${value}`;
    else {
      cells[0] = label;
      cells[valueAt] = value;
    }
    lines.push(csvLine(cells));
  }
  return lines;
}

export const writeCsv: ExportWriter = async (job, destPath) => {
  let done = 0;
  const bytes = await writeChunked(destPath, async (file) => {
    const grouped = job.groups !== undefined;
    const header = grouped ? ['group', ...job.columns] : [...job.columns];
    file.add(csvLine(header));
    const sources = job.groups ? job.groups().map((g) => ({ key: g.key, rows: g.rows() })) : [{ key: '', rows: job.rows() }];
    for (const source of sources) {
      for (const tx of source.rows) {
        const cells = job.columns.map((c) => cellOf(tx, c, job.options.date_format));
        if (file.add(csvLine(grouped ? [source.key, ...cells] : cells))) await file.flush();
        if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
      }
    }
    if (job.options.include_summary) for (const line of summaryLines(job, header)) file.add(line);
  });
  job.onProgress(done);
  return { bytes };
};
