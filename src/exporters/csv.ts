/**
 * CSV exports (CONTRACT §6): RFC 4180, UTF-8, CRLF, the chosen columns in the given order, the
 * same column count on every row, OWASP formula escaping, optional `group` column and summary.
 * Hand-written rather than csv-stringify: 2.5× faster and our own escaping policy (libraries.md).
 */
import type { Transaction } from '../core/types.js';
import { centsToString } from '../core/money.js';
import type { CsvColumn, ExportJob, ExportWriter } from './types.js';
import { writeChunked, type Written } from './chunked-file.js';
import { formatDate } from './date-format.js';
import { CELL_SEPARATOR, csvRawRows } from '../store/csv-rows.js';

const FORMULA_CHARS = '=+\\-@\\t\\r＝＋－＠';
const FORMULA_START = new RegExp(`^[${FORMULA_CHARS}]`);
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

/** A raw cell (store/csv-rows.ts) that goes into the file as it is: no quotes needed, no formula prefix. */
const VERBATIM_CELL = `(?:[^",\\r\\n${CELL_SEPARATOR}${FORMULA_CHARS}][^",\\r\\n${CELL_SEPARATOR}]*)?`;

/** Thrown when a row read by SQL is not one the JS writer would write the same way. */
class NotExact extends Error {}

/**
 * Lines from the cells SQL reads (store/csv-rows.ts) when the export needs no conversion and no
 * groups, else null. Most rows need no escaping at all: one regular expression checks the cell
 * count and every cell, then the separators become commas.
 */
function sqlLines(job: ExportJob): Iterable<string> | null {
  const src = job.unconverted;
  const rows = src && !job.groups ? csvRawRows(src.db, src.workspaceId, src.filter, job.columns, job.options.date_format) : null;
  if (rows === null) return null;
  const width = job.columns.length;
  const verbatim = new RegExp(`^${VERBATIM_CELL}(?:${CELL_SEPARATOR}${VERBATIM_CELL}){${width - 1}}\\r\\n$`);
  return (function* () {
    for (const row of rows) {
      // A lone empty cell is left to csvLine, which quotes it.
      if (verbatim.test(row) && (width > 1 || row.length > 2)) {
        yield row.replaceAll(CELL_SEPARATOR, ',');
        continue;
      }
      const cells = row.slice(0, -2).split(CELL_SEPARATOR);
      if (cells.length !== width) throw new NotExact();
      yield csvLine(cells);
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

async function writeLines(job: ExportJob, destPath: string, lines: Iterable<string>): Promise<Written & { done: number }> {
  let done = 0;
  const written = await writeChunked(destPath, async (file) => {
    const header = job.groups ? ['group', ...job.columns] : [...job.columns];
    file.add(csvLine(header));
    for (const line of lines) {
      if (file.add(line)) await file.flush();
      if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
    }
    if (job.options.include_summary) for (const line of summaryLines(job, header)) file.add(line);
  });
  return { ...written, done };
}

/** The SQL-read lines when they can be exact; a row they cannot reproduce restarts the file with the JS writer. */
export const writeCsv: ExportWriter = async (job, destPath) => {
  const fast = sqlLines(job);
  let written: (Written & { done: number }) | undefined;
  if (fast) {
    try {
      written = await writeLines(job, destPath, fast);
    } catch (err) {
      if (!(err instanceof NotExact)) throw err;
    }
  }
  written ??= await writeLines(job, destPath, jsLines(job));
  job.onProgress(written.done);
  return { bytes: written.bytes, sha256: written.sha256 };
};
