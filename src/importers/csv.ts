/**
 * Reading CSV files for the importers, with csv-parse: a BOM, CRLF or LF, rows longer or shorter
 * than the header (explorers add a trailing empty field, Excel drops one) and the all-comma rows
 * Excel leaves at the end are all tolerated. Columns are found by name, case-insensitively, or by
 * prefix where explorers bake a value into the header (`CurrentValue @ $2264.04/Eth`).
 */
import { parse } from 'csv-parse/sync';
import { TxaError } from '../core/errors.js';
import type { ImportRecord, ParseResult, RowError } from './types.js';

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

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

export function readCsv(text: string, toLine?: number): CsvTable {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, toLine === undefined ? OPTIONS : { ...OPTIONS, to_line: toLine }) as unknown as typeof parsed;
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new TxaError('IMPORT_FAILED', `the file is not valid CSV${e.lines ? ` (line ${e.lines})` : ''}: ${e.message}`, { cause: err });
  }
  const [first, ...rest] = parsed;
  const header = (first?.record ?? []).map((h) => h.trim());
  // csv-parse reports the line a record ends on; a quoted field with line breaks starts it earlier.
  const rows = rest.map(({ record, info }) => ({
    line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
    cells: record,
  }));
  return { header, rows };
}

/**
 * A table whose header is not the first record: the first of the first `within` records that
 * `isHeader` accepts (exchanges put a preamble above it: Coinbase's "Transactions", "User,…"
 * lines). The whole file is the table when none is.
 */
export function readCsvAfterPreamble(text: string, isHeader: (cells: string[]) => boolean, within = 12): CsvTable {
  const table = readCsv(text);
  if (isHeader(table.header)) return table;
  const at = table.rows.slice(0, within).findIndex((r) => isHeader(r.cells.map((c) => c.trim())));
  if (at < 0) return table;
  return { header: table.rows[at]!.cells.map((h) => h.trim()), rows: table.rows.slice(at + 1) };
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
  const records: ImportRecord[] = [];
  const errors: RowError[] = [];
  const skipped: { line: number; reason: string }[] = [];
  for (const row of rows) {
    try {
      const out = map(row);
      if (typeof out === 'string') skipped.push({ line: row.line, reason: out });
      else records.push(...out);
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      errors.push({ line: row.line, field: err.field, reason: err.message });
    }
  }
  return { format, records, errors, skipped };
}
