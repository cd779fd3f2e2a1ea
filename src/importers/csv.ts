/**
 * Reading CSV files for the importers, with csv-parse: a BOM, CRLF or LF, rows longer or shorter
 * than the header (explorers add a trailing empty field, Excel drops one) and the all-comma rows
 * Excel leaves at the end are all tolerated. Columns are found by name, case-insensitively, or by
 * prefix where explorers bake a value into the header (`CurrentValue @ $2264.04/Eth`).
 */
import { Parser } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { TxaError } from '../core/errors.js';
import type { CsvRow, ImportRecord, ParseResult } from './types.js';
import { plainCsvRows } from './csv-plain.js';

export type { CsvRow } from './types.js';

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

const OPTIONS = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
  info: true,
} as const;

type Parsed = { record: string[]; info: { lines: number } };

function notCsv(err: unknown): TxaError {
  const e = err as Error & { lines?: number };
  return new TxaError('IMPORT_FAILED', `the file is not valid CSV${e.lines ? ` (line ${e.lines})` : ''}: ${e.message}`, { cause: err });
}

// csv-parse reports the line a record ends on; a quoted field with line breaks starts it earlier.
const rowOf = ({ record, info }: Parsed): CsvRow => ({
  line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
  cells: record,
});

export function readCsv(text: string, toLine?: number): CsvTable {
  let parsed: Parsed[];
  try {
    parsed = parse(text, toLine === undefined ? OPTIONS : { ...OPTIONS, to_line: toLine }) as unknown as typeof parsed;
  } catch (err) {
    throw notCsv(err);
  }
  const [first, ...rest] = parsed;
  const header = (first?.record ?? []).map((h) => h.trim());
  return { header, rows: rest.map(rowOf) };
}

/** csv-parse's parser core, which both its stream and its sync API drive: fed piece by piece, it keeps a record cut between pieces. */
interface ParserCore {
  parse(buf: Buffer | undefined, end: boolean, push: (record: Parsed) => void, close: () => void): Error | undefined;
}

/**
 * The records of a CSV text given in pieces (read-file.ts readImportPieces), header included, as
 * they are parsed: the same options, lines and errors as readCsv, with only the records of one
 * piece in memory at a time (docs/import.md "Large files"). Plain lines are split by
 * csv-plain.ts, the rest by csv-parse.
 */
export function csvRows(pieces: Iterable<string>): Generator<CsvRow> {
  return plainCsvRows(pieces, parsedCsvRows);
}

/** csvRows with csv-parse alone. */
export function* parsedCsvRows(pieces: Iterable<string>): Generator<CsvRow> {
  const core = (new Parser(OPTIONS) as unknown as { api: ParserCore }).api;
  let out: Parsed[] = [];
  const push = (record: Parsed) => out.push(record);
  const feed = (buf: Buffer | undefined, end: boolean): Parsed[] => {
    const err = core.parse(buf, end, push, () => {});
    if (err !== undefined) throw notCsv(err);
    const done = out;
    out = [];
    return done;
  };
  for (const piece of pieces) for (const parsed of feed(Buffer.from(piece), false)) yield rowOf(parsed);
  for (const parsed of feed(undefined, true)) yield rowOf(parsed);
}

/** A table whose rows are read as they are needed: the header is the first record. */
export interface CsvStream {
  header: string[];
  rows: Iterable<CsvRow>;
}

/** The header (first record) and the rows after it of a record stream. */
export function tableOf(records: Iterable<CsvRow>): CsvStream {
  const it = records[Symbol.iterator]();
  const first = it.next();
  const header = first.done ? [] : first.value.cells.map((h) => h.trim());
  return { header, rows: { [Symbol.iterator]: () => it } };
}

/**
 * A record stream's table whose header is not the first record: the first of the first `within`
 * records that `isHeader` accepts (exchanges put a preamble above it: Coinbase's "Transactions",
 * "User,…" lines). The whole file is the table when none is.
 */
export function tableAfterPreamble(records: Iterable<CsvRow>, isHeader: (cells: string[]) => boolean, within = 12): CsvStream {
  const table = tableOf(records);
  if (isHeader(table.header)) return table;
  const it = table.rows[Symbol.iterator]();
  const ahead: CsvRow[] = [];
  while (ahead.length < within) {
    const next = it.next();
    if (next.done) break;
    if (isHeader(next.value.cells.map((c) => c.trim()))) return { header: next.value.cells.map((h) => h.trim()), rows: { [Symbol.iterator]: () => it } };
    ahead.push(next.value);
  }
  return { header: table.header, rows: chain(ahead, it) };
}

function chain<T>(first: T[], rest: Iterator<T>): Iterable<T> {
  return {
    *[Symbol.iterator]() {
      yield* first;
      for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
    },
  };
}

/** The header alone (first record), for format detection. */
export function readHeader(text: string): string[] {
  try {
    return readCsv(text, 1).header;
  } catch {
    return [];
  }
}

/** Column positions of a header, looked up by name or name prefix, ignoring case. */
export class Columns {
  private readonly lower: string[];

  constructor(readonly header: string[]) {
    this.lower = header.map((h) => h.toLowerCase());
  }

  /** Index of the first of `names` present, or -1. */
  find(...names: string[]): number {
    for (const name of names) {
      const i = this.lower.indexOf(name.toLowerCase());
      if (i >= 0) return i;
    }
    return -1;
  }

  /** Index of the first column whose name starts with `prefix` and is not one of `except`, or -1. */
  findPrefix(prefix: string, except: string[] = []): number {
    const p = prefix.toLowerCase();
    const skip = except.map((e) => e.toLowerCase());
    return this.lower.findIndex((h) => h.startsWith(p) && !skip.includes(h));
  }

  /** Positions of several columns by exact name (-1 for absent ones). */
  pick<K extends string>(names: readonly K[]): Record<K, number> {
    return Object.fromEntries(names.map((n) => [n, this.find(n)])) as Record<K, number>;
  }

  has(...names: string[]): boolean {
    return names.every((n) => this.find(n) >= 0);
  }
}

/**
 * Refuses a file that lacks columns a transaction needs: one error naming them all, nothing
 * imported (the field is the comma-separated list). `why` ends the message (so `--json` shows it
 * too); `hint` is the next step, on a line of its own.
 */
export function requireColumns(missing: string[], help: { why?: string; hint?: string } = {}): void {
  if (missing.length === 0) return;
  const list = missing.join(',');
  const message = `the file lacks column${missing.length === 1 ? '' : 's'} a transaction needs: ${missing.join(', ')}`;
  throw new TxaError('IMPORT_FAILED', help.why ? `${message}; ${help.why}` : message, {
    field: list,
    extra: { missing_columns: missing },
    hint: help.hint,
  });
}

/** A problem with one field of one row; the importers collect these as RowErrors. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

export function fail(field: string, reason: string): never {
  // A bad cell is data, not a bug: no stack trace, whose capture per bad row cost as much as
  // parsing the whole file (200,000 bad rows: bench/RESULTS.md).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const err = new FieldError(field, reason);
  Error.stackTraceLimit = limit;
  throw err;
}

/**
 * Maps every row to records, collecting each bad row's first problem instead of stopping, so the
 * user sees all bad rows at once. `map` returns records, or a string: the reason the row is skipped.
 */
export function mapRows<R extends { line: number }>(format: string, rows: R[], map: (row: R) => ImportRecord[] | string): ParseResult {
  const result = emptyResult(format);
  for (const row of rows) mapRow(result, row, map);
  return result;
}

/**
 * mapRows over a row stream, in batches of `BATCH_ROWS` rows, each handed on before the next is
 * read (docs/import.md "Large files"); for rows that are each a transaction of their own.
 */
export function* mapRowStream<R extends { line: number }>(format: string, rows: Iterable<R>, map: (row: R) => ImportRecord[] | string): Generator<ParseResult> {
  let result = emptyResult(format);
  let n = 0;
  for (const row of rows) {
    mapRow(result, row, map);
    if (++n % BATCH_ROWS === 0) {
      yield result;
      result = emptyResult(format);
    }
  }
  yield result;
}

/** Rows of a file read per batch of a streamed import: a few MB of records at a time, all batches in one transaction. */
export const BATCH_ROWS = 5000;

export const emptyResult = (format: string): ParseResult => ({ format, records: [], errors: [], skipped: [] });

/**
 * `map(row)`'s records into `into`: a string answer skips the lines of `group` (the rows of one
 * trade; the row alone by default), a FieldError is an error of the row's line.
 */
export function mapRow<R extends { line: number }>(
  into: ParseResult,
  row: R,
  map: (row: R) => ImportRecord[] | string,
  group: readonly { line: number }[] = [row],
): void {
  try {
    const out = map(row);
    if (typeof out === 'string') for (const g of group) into.skipped.push({ line: g.line, reason: out });
    else for (const r of out) into.records.push(r);
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    into.errors.push({ line: row.line, field: err.field, reason: err.message });
  }
}

/** The batches of a streamed parse as one result (an importer's `parse` of a whole text). */
export function collect(format: string, batches: Iterable<ParseResult>): ParseResult {
  const all = emptyResult(format);
  for (const b of batches) {
    for (const r of b.records) all.records.push(r);
    for (const e of b.errors) all.errors.push(e);
    for (const s of b.skipped) all.skipped.push(s);
  }
  return all;
}
