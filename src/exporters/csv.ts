/**
 * CSV exports (docs/exports.md): RFC 4180, UTF-8, CRLF, the chosen columns in the given order, the
 * same column count on every row, OWASP formula escaping, optional `group` column and summary.
 * Hand-written rather than csv-stringify: 2.5× faster and our own escaping policy (libraries.md).
 */
import type { TagRef, Transaction } from '../core/types.js';
import { centsToString } from '../core/money.js';
import type { ExportJob, ExportWriter } from './types.js';
import type { CsvColumn } from '../core/export-values.js';
import { OFF_THREAD_ROWS, writeChunked, type WriteOptions, type Written } from './chunked-file.js';
import { formatDate } from './date-format.js';
import { csvLine, rawRow } from './csv-text.js';
import { NotExact } from '../store/raw-rows.js';
import { csvRawRanges, csvRawRows } from '../store/csv-rows.js';
import { readTagSets, type TagSets } from '../store/tag-sets.js';
import { jobRangeSpec, jobShare, RANGE_ROWS, type Unconverted } from './range-readers.js';

const PROGRESS_EVERY = 1000;

/** A fiat number from integer cents → fixed two decimals, never through float formatting. */
export function fiatText(value: number): string {
  return centsToString(Math.round(value * 100));
}

/** The `tags` cell: the names, in the transaction's tag order. */
const tagsCell = (tags: TagRef[]) => tags.map((t) => t.name).join('; ');

function cellOf(tx: Transaction, column: CsvColumn, dateFormat: string): string {
  switch (column) {
    case 'date':
      return formatDate(tx.timestamp, dateFormat);
    case 'token':
      return tx.token.symbol;
    case 'fiat_value':
      return tx.fiat_value === null ? '' : fiatText(tx.fiat_value);
    case 'tags':
      return tagsCell(tx.tags);
    case 'attachments':
      return tx.attachments.map((a) => a.file_name).join('; ');
    case 'notes':
      return tx.notes ?? '';
    case 'chain':
      return tx.chain ?? '';
    default:
      return tx[column];
  }
}

/** The four summary rows after a row of empty cells: label first, value in `fiat_value` (else the second column). */
function summaryRows(job: ExportJob, header: string[]): string[][] {
  const s = job.summary;
  const rows: [string, string][] = [
    ['Total inflow', fiatText(s.total_inflow)],
    ['Total outflow', fiatText(s.total_outflow)],
    ['Net flow', fiatText(s.net_flow)],
    ['Transaction count', String(s.transaction_count)],
  ];
  const width = header.length;
  const valueAt = header.indexOf('fiat_value') > 0 ? header.indexOf('fiat_value') : 1;
  const out = [Array<string>(width).fill('')];
  for (const [label, value] of rows) {
    const cells = Array<string>(width).fill('');
    if (width === 1) cells[0] = `${label}: ${value}`;
    else {
      cells[0] = label;
      cells[valueAt] = value;
    }
    out.push(cells);
  }
  return out;
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

/**
 * Writes the header, the rows and the summary. `raw` rows (store/csv-rows.ts) become CSV lines
 * as each chunk is written (csv-text.ts csvFromRaw), so the header and summary go in raw too.
 */
async function writeRows(
  job: ExportJob,
  destPath: string,
  rows: Iterable<string>,
  raw: boolean,
  tagSets?: TagSets | null,
): Promise<Written & { done: number }> {
  const header = job.groups ? ['group', ...job.columns] : [...job.columns];
  const line = raw ? rawRow : csvLine;
  const opts: WriteOptions = { offThread: job.transactionCount >= OFF_THREAD_ROWS };
  if (raw) opts.transform = { kind: 'csv-raw', width: header.length };
  if (raw) opts.ledger = job.unconverted?.snapshot?.path;
  let done = 0;
  const written = await writeChunked(
    destPath,
    async (file) => {
      file.add(line(header));
      // Raw rows end with ROW_END, so ranges join with nothing; a row SQL cannot print fails the file as NotExact.
      const cut = (src: Unconverted) => csvRawRanges(src.db, src.workspaceId, src.filter, job.columns, job.options.date_format, RANGE_ROWS, tagSets);
      const spec = raw && file.writeRanges ? jobRangeSpec(job, cut, { separator: '', placeholders: false }) : undefined;
      if (spec) {
        done = spec.ranges.total;
        await file.writeRanges!(spec, jobShare(job, spec));
      } else {
        for (const row of rows) {
          if (file.add(row)) await file.flush();
          if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
        }
      }
      if (job.options.include_summary) for (const cells of summaryRows(job, header)) file.add(line(cells));
    },
    opts,
  );
  return { ...written, done };
}

/**
 * The rows SQL reads (no conversion, no groups) when they can be exact; a row they cannot
 * reproduce restarts the file with the JS writer.
 */
export const writeCsv: ExportWriter = async (job, destPath) => {
  const src = job.unconverted && !job.groups ? job.unconverted : undefined;
  const tagSets = src && job.columns.includes('tags') ? readTagSets(src.db, src.workspaceId, job.transactionCount, tagsCell) : null;
  const raw = src ? csvRawRows(src.db, src.workspaceId, src.filter, job.columns, job.options.date_format, tagSets) : null;
  let written: (Written & { done: number }) | undefined;
  if (raw) {
    try {
      written = await writeRows(job, destPath, raw, true, tagSets);
    } catch (err) {
      if (!(err instanceof NotExact)) throw err;
    }
  }
  written ??= await writeRows(job, destPath, jsLines(job), false);
  job.onProgress(written.done);
  return { bytes: written.bytes, sha256: written.sha256 };
};
