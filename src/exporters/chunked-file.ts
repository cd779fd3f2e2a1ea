/**
 * Files written in large string chunks that respect backpressure, so writers stay fast (one
 * syscall per chunk) and memory stays flat however many rows they emit. The SHA-256 of the
 * bytes is computed on the way, so the file need not be read back for its digest. A chunk may
 * be transformed before it is written (raw CSV rows → CSV lines), and large exports do that,
 * the encoding, hashing and writing on a worker thread while the caller reads the next rows.
 */
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvFromRaw } from './csv-text.js';
import { NotExact } from '../store/raw-rows.js';
import type { LedgerBatch, LedgerRead } from '../store/ledger-read.js';
import { rangeReader } from '../store/range-reader.js';
import { DONE, isPlaceholder, RangeClaims, rangeCount, rangeText, readPacked, readRange, type RangeSpec, type SharedRanges } from './range-readers.js';

/** TextEncoder, not Buffer.from: its bytes never share a pooled ArrayBuffer, so they can be transferred. */
const encoder = new TextEncoder();

const CHUNK_CHARS = 256 * 1024;
/** From this many rows an export's file is written on a worker thread (starting one costs ~40 ms). */
export const OFF_THREAD_ROWS = 20_000;
/** The slots of the ledger batches' shared counters (OffThreadFile.taken, file-worker.ts readLedger). */
export const TAKEN = 0;
export const WANTED = 1;
/** Up to four chunks queued for the disk (or the worker): the next chunk is built while one is written. */
const QUEUED_CHUNKS = 4;

export interface Written {
  bytes: number;
  sha256: string;
}

/** What to do to each chunk before it is written (raw rows → CSV lines): plain data, so it can travel to a worker. */
export type ChunkTransform = { kind: 'csv-raw'; width: number };

/** A chunk's transform, given its text and how many rows (OutFile.add calls) it holds. */
type Transform = (text: string, rows: number) => string;

function transformOf(spec: ChunkTransform | undefined): Transform {
  return spec ? csvFromRaw(spec.width) : (text) => text;
}

export interface OutFile {
  /** Buffers `text` (`rows` rows for the transform); true when a chunk is full and the caller should `await flush()`. */
  add(text: string, rows?: number): boolean;
  /** Hands the buffered chunk on, waiting while the writer is saturated (backpressure). */
  flush(): Promise<void>;
  /** Writes what is buffered, closes the file and returns its size in bytes and SHA-256 (hex). */
  close(): Promise<Written>;
  /** Closes the file after a failure without waiting on pending data. */
  destroy(): void;
  /** Files written by a worker only: writes the rows of `spec`, read by this thread and the worker together. */
  writeRanges?(spec: RangeSpec, shared: SharedRanges): Promise<void>;
  /**
   * Files written by a worker that opened a ledger only: the record batches of `read`
   * (store/ledger-read.ts), read by the worker in its snapshot a few batches ahead of the caller;
   * null when the worker has no snapshot, or `sameSnapshot()` says a commit came in since the caller's.
   */
  ledgerBatches?(read: LedgerRead, sameSnapshot: () => boolean): Promise<AsyncIterable<LedgerBatch> | null>;
}

/** The text added since the last chunk was taken. */
class ChunkBuffer {
  private parts: string[] = [];
  size = 0;
  rows = 0;

  add(text: string, rows = 1): boolean {
    this.parts.push(text);
    this.size += text.length;
    this.rows += rows;
    return this.size >= CHUNK_CHARS;
  }

  /** The buffered text as one string and its rows (null when empty), and an empty buffer. */
  take(): { text: string; rows: number } | null {
    if (this.parts.length === 0) return null;
    const chunk = { text: this.parts.join(''), rows: this.rows };
    this.parts = [];
    this.size = 0;
    this.rows = 0;
    return chunk;
  }
}

/** A file written on this thread. */
export class ChunkedFile implements OutFile {
  private readonly stream: WriteStream;
  private readonly buffer = new ChunkBuffer();
  private readonly transform;
  private failure: Error | undefined;
  private readonly hash = createHash('sha256');

  constructor(path: string, transform?: ChunkTransform) {
    this.transform = transformOf(transform);
    this.stream = createWriteStream(path, { highWaterMark: QUEUED_CHUNKS * CHUNK_CHARS });
    this.stream.on('error', (err) => {
      this.failure = err;
    });
  }

  add(text: string, rows?: number): boolean {
    return this.buffer.add(text, rows);
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunk = this.buffer.take();
    if (chunk === null) return;
    await this.writeBytes(Buffer.from(this.transform(chunk.text, chunk.rows), 'utf8'));
  }

  /** Writes bytes already encoded (and not to be transformed) after what is buffered. */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    if (this.buffer.size > 0) await this.flush();
    this.hash.update(bytes);
    if (!this.stream.write(bytes)) await this.drained();
    if (this.failure) throw this.failure;
  }

  /** Resolves on 'drain' or on an error (then thrown by the caller), leaving no listener behind. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
    });
  }

  async close(): Promise<Written> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.failure) throw this.failure;
    return { bytes: this.stream.bytesWritten, sha256: this.hash.digest('hex') };
  }

  destroy(): void {
    this.stream.destroy();
  }
}

/** Messages between OffThreadFile and its worker (file-worker.ts). */
export type ToWorker =
  | { chunk: string; rows: number }
  | { end: true }
  | { ranges: RangeSpec; claims: SharedArrayBuffer }
  | { go: boolean }
  | { range: number; bytes: Uint8Array }
  | { ledger: LedgerRead | null };
export type FromWorker =
  | { ack: true }
  | { done: Written }
  | { failed: string; notExact: boolean }
  | { opened: boolean }
  | { redo: number }
  | { written: number }
  | { batch: LedgerBatch }
  | { batchesEnd: true };

const WORKER_URL = new URL('./file-worker.js', import.meta.url);

/** A file whose chunks are transformed, encoded, hashed and written by a worker thread. */
class OffThreadFile implements OutFile {
  private readonly worker: Worker;
  private readonly buffer = new ChunkBuffer();
  private inFlight = 0;
  private failure: Error | undefined;
  private written: Written | undefined;
  private wake: (() => void) | undefined;
  /** Whether the worker has its snapshot open: undefined until it says. */
  private opened: boolean | undefined;
  private readonly redos: number[] = [];
  /** Ledger batches the worker has read and this thread not yet taken, and whether it read the last. */
  private readonly batches: LedgerBatch[] = [];
  private batchesEnd = false;
  /**
   * How many ledger batches this thread has taken, shared with the worker, which reads ahead of it
   * by a few: a message per batch taken cost the report's thread ≈ 5 ms of wall time (1.5 ms of
   * CPU) each at load 8 on 2 cores, half a second per 100k rows (bench/RESULTS.md "Session 13").
   * [TAKEN] is that count; [WANTED] the count the waiting worker waits for (0: it does not wait).
   * A notify is woken only at that count: each cost this thread ≈ 0.9 ms at load 5 (Session 14).
   */
  private readonly taken = new Int32Array(new SharedArrayBuffer(8));

  /** The file's chunk transform, for the ranges this thread makes (the worker applies it to the rest). */
  private readonly transform;
  /** With WriteOptions.digestOnly: the text's hash and size, made here; the worker then only reads the ledger. */
  private readonly digest: { hash: ReturnType<typeof createHash>; bytes: number } | undefined;

  constructor(path: string, transform?: ChunkTransform, ledger?: string, digestOnly = false) {
    this.transform = transformOf(transform);
    if (digestOnly) this.digest = { hash: createHash('sha256'), bytes: 0 };
    // A worker that reads ranges makes short-lived strings only: a small young generation keeps
    // peak RSS 25–30 MB lower at the same speed; the CSV transform needs 8 MB (4 MB slowed it by a third).
    const resourceLimits = ledger ? { maxYoungGenerationSizeMb: transform ? 8 : 4 } : undefined;
    this.worker = new Worker(WORKER_URL, { workerData: { path, transform, ledger, taken: this.taken }, resourceLimits });
    this.worker.on('message', (m: FromWorker) => {
      if ('ack' in m) this.inFlight--;
      else if ('done' in m) this.written = m.done;
      else if ('opened' in m) this.opened = m.opened;
      else if ('redo' in m) this.redos.push(m.redo);
      else if ('batch' in m) this.batches.push(m.batch);
      else if ('batchesEnd' in m) this.batchesEnd = true;
      else if ('failed' in m) this.failure = m.notExact ? new NotExact() : new Error(m.failed);
      this.wake?.();
    });
    this.worker.on('error', (err) => {
      this.failure = err;
      this.wake?.();
    });
    this.worker.on('exit', () => {
      this.failure ??= this.written ? undefined : new Error('the export file worker stopped');
      this.wake?.();
    });
  }

  /** Waits for the worker's next message (or its end). */
  private next(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  add(text: string, rows?: number): boolean {
    return this.buffer.add(text, rows);
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunk = this.buffer.take();
    if (chunk === null) return;
    if (this.digest) {
      const text = this.transform(chunk.text, chunk.rows);
      this.digest.hash.update(text, 'utf8');
      this.digest.bytes += Buffer.byteLength(text, 'utf8');
      return;
    }
    this.worker.postMessage({ chunk: chunk.text, rows: chunk.rows } satisfies ToWorker);
    this.inFlight++;
    while (this.inFlight >= QUEUED_CHUNKS && !this.failure) await this.next();
    if (this.failure) throw this.failure;
  }

  /**
   * Both threads claim ranges; the worker starts once it has opened its own snapshot and this
   * thread has checked that no commit came in between (else this thread reads every range).
   */
  async writeRanges(spec: RangeSpec, shared: SharedRanges): Promise<void> {
    await this.flush();
    const claims = new RangeClaims(new SharedArrayBuffer(8), rangeCount(spec));
    this.post({ ranges: spec, claims: claims.buffer });
    const reader = rangeReader(shared.db, spec.ranges.bounds, spec.query, spec.packed);
    const packed = reader.packed;
    let decided = false;
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.opened !== undefined && !decided) {
        decided = true;
        this.post({ go: this.opened && shared.sameSnapshot() });
      }
      // Progress is a commit too: none until the worker's snapshot is checked.
      if (decided) shared.onWritten(claims.written);
      const redo = this.redos.shift();
      const i = redo ?? claims.claim();
      // A range the worker handed back holds placeholders, which its packed query found already.
      const bytes = i >= 0 && packed && redo === undefined ? readPacked(packed, spec, i) : null;
      if (bytes) {
        this.worker.postMessage({ range: i, bytes } satisfies ToWorker);
        await nextTurn();
      } else if (i >= 0) {
        let rows = readRange(reader, spec, i);
        const resolve = spec.placeholders ? shared.resolve : undefined;
        if (resolve) rows = rows.map((row) => (isPlaceholder(row) ? resolve(row) : row));
        // Transformed and encoded here, and moved, not copied: the worker has the writing to do as well.
        const text = rangeText(spec, i, rows);
        const bytes = encoder.encode(this.transform(text, rows.length));
        this.worker.postMessage({ range: i, bytes } satisfies ToWorker, [bytes.buffer]);
        await nextTurn(); // lets the worker's messages in
      } else if (i === DONE && claims.written === rangeCount(spec)) {
        return;
      } else {
        await this.next();
      }
    }
  }

  async ledgerBatches(read: LedgerRead, sameSnapshot: () => boolean): Promise<AsyncIterable<LedgerBatch> | null> {
    while (this.opened === undefined && !this.failure) await this.next();
    if (this.failure) throw this.failure;
    const go = this.opened === true && sameSnapshot();
    this.post({ ledger: go ? read : null });
    return go ? this.receiveBatches() : null;
  }

  private async *receiveBatches(): AsyncGenerator<LedgerBatch> {
    for (;;) {
      if (this.failure) throw this.failure;
      const batch = this.batches.shift();
      if (batch) {
        // Taken now, so the worker reads the next one while this thread works on this one.
        const taken = Atomics.add(this.taken, TAKEN, 1) + 1;
        const wanted = Atomics.load(this.taken, WANTED);
        if (wanted !== 0 && taken >= wanted) {
          Atomics.store(this.taken, WANTED, 0);
          Atomics.notify(this.taken, TAKEN);
        }
        yield batch;
      } else if (this.batchesEnd) {
        return;
      } else {
        await this.next();
      }
    }
  }

  private post(m: ToWorker): void {
    this.worker.postMessage(m);
  }

  async close(): Promise<Written> {
    await this.flush();
    this.worker.postMessage({ end: true } satisfies ToWorker);
    while (!this.written && !this.failure) await this.next();
    if (this.failure) throw this.failure;
    return this.digest ? { bytes: this.digest.bytes, sha256: this.digest.hash.digest('hex') } : this.written!;
  }

  destroy(): void {
    void this.worker.terminate();
  }
}

export interface WriteOptions {
  transform?: ChunkTransform;
  /** Use a worker thread (when the compiled worker is there; from TypeScript sources the file is written here). */
  offThread?: boolean;
  /** The ledger the worker opens a snapshot on at once, to read ranges too (OutFile.writeRanges). */
  ledger?: string;
  /**
   * Only the text's size and SHA-256 are wanted (a closed period's digests): off the thread, the
   * text is hashed here and never sent to the worker, whose file stays empty; it still reads the ledger.
   */
  digestOnly?: boolean;
}

/** Creates a file, lets `fill` write it, and closes it; on failure the file is destroyed and the error rethrown. */
export async function writeChunked(path: string, fill: (file: OutFile) => Promise<void>, opts: WriteOptions = {}): Promise<Written> {
  const file =
    opts.offThread && existsSync(fileURLToPath(WORKER_URL))
      ? new OffThreadFile(path, opts.transform, opts.ledger, opts.digestOnly)
      : new ChunkedFile(path, opts.transform);
  try {
    await fill(file);
    return await file.close();
  } catch (err) {
    file.destroy();
    throw err;
  }
}
