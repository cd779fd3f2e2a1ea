/**
 * Two readers for one large export: the rows are cut into key ranges (store/key-ranges.ts),
 * and the main thread and the file worker each claim the next free range, make its text with
 * their own connection in the same snapshot, and the worker writes the ranges in order. On two
 * cores a 1M-row JSON export takes ≈ 1.5× less time than with one reader, CSV ≈ 1.1× (its worker
 * had the CSV transform to do already; bench/RESULTS.md).
 * What both threads share is here: the claims (a SharedArrayBuffer) and the reading of a range.
 */
import type { KeyRanges, RangeQuery } from '../store/key-ranges.js';
import type { Db } from '../store/db.js';
import type { RangeReader } from '../store/range-reader.js';
import type { TagSets } from '../store/tag-sets.js';
import type { ExportJob } from './types.js';

/**
 * Rows per range, and ranges claimed but not yet written at most. Ranges of 5,000 rows (≈ 3 MB
 * of JSON) took peak RSS from 220 to 300 MB on 1M rows for no speed; 500–2,000 are alike. On the
 * realistic ledger (longer rows, two-byte strings once a range holds non-Latin-1 text) a JSON
 * export peaked at 250–260 MB with 2,000 rows and 210 MB with 1,000, at the same CPU time.
 */
export const RANGE_ROWS = 1000;
const WINDOW = 4;

/**
 * What the worker needs to read ranges itself. Each row of `query` is one text. Ranges are
 * joined with `separator`, as rows within a range are.
 */
export interface RangeSpec {
  query: RangeQuery;
  /** RANGE_ROWS rows each, but the last. */
  ranges: KeyRanges;
  separator: string;
  /** Rows starting with a space are placeholders only the main thread can fill (JSON), so the worker hands such a range back. */
  placeholders: boolean;
  /** The tag sets the query's tag text function reads (store/tag-sets.ts), defined on each reader. */
  tagSets?: TagSets;
  /**
   * Files without a transform (JSON): a query whose one row is the whole range as UTF-8 bytes
   * (rows joined by `separator` in SQL), its row count and its placeholder count. A range then
   * reaches JS as one Buffer, not a string per row to join and encode again: ≈ 30 % less CPU.
   */
  packed?: RangeQuery;
}

/** The main thread's side of reading ranges. */
export interface SharedRanges {
  /** The job's reader: its snapshot is the one the worker must see. */
  db: Db;
  /** True while no commit has happened since the reader's snapshot was taken. */
  sameSnapshot(): boolean;
  /** The text of a placeholder row (a row only this thread can make), when RangeSpec.placeholders. */
  resolve?(row: string): string;
  /** Called as ranges are written, with how many are. */
  onWritten(ranges: number): void;
}

export const rangeCount = (spec: RangeSpec) => spec.ranges.bounds.length - 1;

export const isPlaceholder = (row: string) => row.charCodeAt(0) === 0x20;

/** No range left to claim. */
export const DONE = -1;
/** The window is full: wait until the worker writes a range. */
export const WAIT = -2;

/** Which ranges are claimed and how many are written, shared by both threads. */
export class RangeClaims {
  private readonly slots: Int32Array;

  /** `buffer`: a fresh SharedArrayBuffer(8), or the one the other thread made. */
  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly count: number,
  ) {
    this.slots = new Int32Array(buffer);
  }

  /** The index of a range now this thread's, or DONE, or WAIT. */
  claim(): number {
    for (;;) {
      const next = Atomics.load(this.slots, 0);
      if (next >= this.count) return DONE;
      if (next >= this.written + WINDOW) return WAIT;
      if (Atomics.compareExchange(this.slots, 0, next, next + 1) === next) return next;
    }
  }

  get written(): number {
    return Atomics.load(this.slots, 1);
  }

  /** Called by the writer after each range, in order. */
  markWritten(): number {
    return Atomics.add(this.slots, 1, 1) + 1;
  }
}

/** Checks a range's row count against the count the key walk found. */
function checkCount(spec: RangeSpec, i: number, rows: number): void {
  const expected = i < rangeCount(spec) - 1 ? RANGE_ROWS : spec.ranges.total - RANGE_ROWS * (rangeCount(spec) - 1);
  if (rows !== expected) throw new Error(`the ledger changed while the export was read (range ${i}: ${rows} rows, expected ${expected})`);
}

/** The row texts of range `i`, checked against the count the key walk found. */
export function readRange(reader: RangeReader, spec: RangeSpec, i: number): string[] {
  const rows = reader.rows(i);
  checkCount(spec, i, rows.length);
  return rows;
}

const encoder = new TextEncoder();

/**
 * Range `i` as written, in bytes, through `packed` (a reader's RangeSpec.packed query): null
 * when it holds placeholders, which only readRange and the main thread can fill.
 */
export function readPacked(packed: NonNullable<RangeReader['packed']>, spec: RangeSpec, i: number): Uint8Array | null {
  const [bytes, rows, placeholders] = packed(i);
  checkCount(spec, i, rows);
  if (placeholders > 0) return null;
  return i === 0 ? bytes : Buffer.concat([encoder.encode(spec.separator), bytes]);
}

/** A range's text as written: its rows, after a separator unless it is the first range. */
export function rangeText(spec: RangeSpec, i: number, rows: string[]): string {
  return (i === 0 ? '' : spec.separator) + rows.join(spec.separator);
}

/** Where an unconverted job reads its rows (ExportJob.unconverted). */
export type Unconverted = NonNullable<ExportJob['unconverted']>;

/**
 * The job's rows as ranges for two readers, when it reads a file ledger's snapshot without
 * conversion and `cut` can range its rows (null: SQL cannot, or SQLite would sort each range).
 * Only a file written by the worker can take them (OutFile.writeRanges), which is what makes the
 * export large enough.
 */
export function jobRangeSpec(
  job: ExportJob,
  cut: (src: Unconverted) => { query: RangeQuery; ranges: KeyRanges; tagSets?: TagSets; packed?: RangeQuery } | null,
  text: Pick<RangeSpec, 'separator' | 'placeholders'>,
): RangeSpec | undefined {
  const src = job.unconverted;
  const rows = src?.snapshot ? cut(src) : null;
  return rows ? { ...rows, ...text } : undefined;
}

/** What this thread lends the ranges of a job with a jobRangeSpec: its reader, the snapshot check, progress in rows. */
export function jobShare(job: ExportJob, spec: RangeSpec, resolve?: (row: string) => string): SharedRanges {
  const src = job.unconverted!;
  const total = spec.ranges.total;
  return { db: src.db, sameSnapshot: src.snapshot!.unchanged, resolve, onWritten: (ranges) => job.onProgress(Math.min(ranges * RANGE_ROWS, total)) };
}
