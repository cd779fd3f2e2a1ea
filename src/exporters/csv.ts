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
import { CELL_SEPARATOR, csvRawRows } from '../store/csv-rows.js';

const FORMULA_CHARS = '=+\\-@\\t\\r＝＋－＠';
const FORMULA_START = new RegExp(`^[${FORMULA_CHARS}]`);
/** In raw cells joined by CELL_SEPARATOR: a character that needs quotes, or a cell that may need the prefix. */
const NOT_VERBATIM = new RegExp(`[",\\r\\n]|(?:^|${CELL_SEPARATOR})[${FORMULA_CHARS}]`);
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

/**
 * Lines from the cells SQL reads (store/csv-rows.ts) when the export needs no conversion and no
 * groups, else null. Most rows need no escaping at all: their joined cells become the line as they are.
 */
function sqlLines(job: ExportJob): Iterable<string> | null {
  const src = job.unconverted;
  const rows = src && !job.groups ? csvRawRows(src.db, src.workspaceId, src.filter, job.columns, job.options.date_format) : null;
  if (rows === null) return null;
  return (function* () {
    for (const row of rows) {
      if (typeof row !== 'string') yield csvLine(row);
      else if (row === '' || NOT_VERBATIM.test(row)) yield csvLine(row.split(CELL_SEPARATOR));
      else yield `${row.replaceAll(CELL_SEPARATOR, ',')}\r\n`;
    }
  })();
}

/** Each row's line from the Transaction objects, with the `group` column when grouped. */
function* jsLines(job: ExportJob): Generator<string> {
  const sources = job.groups ? job.groups().map((g) => ({ key: g.key, rows: g.rows() })) : [{ key: '', rows: job.rows() }];
  for (const source of sources) {
    for (const tx of source.rows) {
      const cells = job.columns.map((c) => cellOf(tx, c, job.options.date_format));
      yield csvLine(job.groups ? [source.key, ...cells] : cells);
    }
  }
}

export const writeCsv: ExportWriter = async (job, destPath) => {
  let done = 0;
  const bytes = await writeChunked(destPath, async (file) => {
    const header = job.groups ? ['group', ...job.columns] : [...job.columns];
    file.add(csvLine(header));
    for (const line of sqlLines(job) ?? jsLines(job)) {
      if (file.add(line)) await file.flush();
      if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
    }
    if (job.options.include_summary) for (const line of summaryLines(job, header)) file.add(line);
  });
  job.onProgress(done);
  return { bytes };
};
