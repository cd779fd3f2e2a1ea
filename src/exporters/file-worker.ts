/**
 * The worker thread of a large export's file (chunked-file.ts OffThreadFile): transforms,
 * encodes, hashes and writes each chunk it is sent, in order, acknowledging each one so the
 * reading thread can keep a few chunks in flight and no more. Given a ledger, it opens a read
 * snapshot on it at once (store/worker-reader.ts); sent a RangeSpec, it reads ranges of rows
 * itself if the main thread finds that snapshot is its own, and writes all ranges in order
 * (range-readers.ts); sent a LedgerRead, it reads a tax report's ledger records and posts them
 * to the main thread, which computes the lots meanwhile (store/ledger-read.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChunkedFile, TAKEN, WANTED, type ChunkTransform, type FromWorker, type ToWorker } from './chunked-file.js';
import { NotExact } from '../store/raw-rows.js';
import { DONE, isPlaceholder, RangeClaims, rangeCount, rangeText, readPacked, readRange, WAIT, type RangeSpec } from './range-readers.js';
import { openWorkerReader, type WorkerReader } from '../store/worker-reader.js';
import type { LedgerBatch, LedgerRead } from '../store/ledger-read.js';

const port = parentPort!;
const { path, transform, ledger, taken } = workerData as { path: string; transform?: ChunkTransform; ledger?: string; taken: Int32Array };
const file = new ChunkedFile(path, transform);
const post = (m: FromWorker) => port.postMessage(m);

// File writes run one at a time, in the order queued; after a failure the rest are skipped.
let failed = false;
let queue = Promise.resolve();

function fail(err: unknown): void {
  if (failed) return;
  failed = true;
  // Wakes the ledger's reader if it waits for the main thread to take a batch.
  Atomics.notify(taken, TAKEN);
  file.destroy();
  stopReading();
  post({ failed: (err as Error).message, notExact: err instanceof NotExact });
}

function enqueue(step: () => Promise<void>): void {
  queue = queue.then(async () => {
    if (failed) return;
    try {
      await step();
    } catch (err) {
      fail(err);
    }
  });
}

/** The second reader's snapshot: opened at start, so it begins as close to the main thread's as can be. */
let reader: WorkerReader | undefined;
/** The tax report's ledger read on `reader`, while it runs (readLedger). */
let ledgerRead: Generator<LedgerBatch> | undefined;

function stopReading(): void {
  // A ledger read stopped half-way (a failure) closes its statements first: the connection
  // refuses to commit while one is open.
  ledgerRead?.return(undefined);
  ledgerRead = undefined;
  reader?.close();
  reader = undefined;
}

/** This thread's share of a RangeSpec: reading ranges it claims, and writing every range in order. */
class WorkerRanges {
  private readonly claims: RangeClaims;
  private readonly ready = new Map<number, { text: string; rows: number } | Uint8Array>();
  private wake: (() => void) | undefined;

  constructor(
    private readonly spec: RangeSpec,
    claims: SharedArrayBuffer,
  ) {
    this.claims = new RangeClaims(claims, rangeCount(spec));
  }

  /** A range as written (rangeText), from either thread: written once the ranges before it are. */
  deliver(i: number, range: { text: string; rows: number } | Uint8Array): void {
    this.ready.set(i, range);
    enqueue(() => this.writeReady());
  }

  private async writeReady(): Promise<void> {
    for (let i = this.claims.written; this.ready.has(i); i = this.claims.written) {
      const range = this.ready.get(i)!;
      this.ready.delete(i);
      if (range instanceof Uint8Array) await file.writeBytes(range);
      else if (file.add(range.text, range.rows)) await file.flush();
      post({ written: this.claims.markWritten() });
      this.wake?.();
    }
  }

  /** Claims and reads ranges until none is left; a range holding placeholders goes back to the main thread. */
  async read(): Promise<void> {
    const rangeReads = reader!.ranges(this.spec.ranges, this.spec.query, this.spec.packed, this.spec.tagSets);
    const packed = rangeReads.packed;
    for (let i = this.claims.claim(); i !== DONE && !failed; i = this.claims.claim()) {
      if (i === WAIT) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const bytes = packed && readPacked(packed, this.spec, i);
      if (bytes) this.deliver(i, bytes);
      // The packed query counted placeholders: the range goes back without being read again.
      else if (packed && this.spec.placeholders) post({ redo: i });
      else {
        const rows = readRange(rangeReads, this.spec, i);
        if (this.spec.placeholders && rows.some(isPlaceholder)) post({ redo: i });
        else this.deliver(i, { text: rangeText(this.spec, i, rows), rows: rows.length });
      }
      // Takes in the main thread's ranges and writes all it can before reading more: this
      // thread reads only in the time writing leaves it.
      await nextTurn();
      await queue;
    }
    stopReading();
  }
}

let ranges: WorkerRanges | undefined;

/** Atomics.waitAsync (Node 16+; not in the compiler's ES2022 lib). */
const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, i: number, v: number) => { async: boolean; value: Promise<unknown> | string } })
  .waitAsync;

/**
 * Ledger batches the reader stays at most ahead of those the main thread took (`taken`, counted
 * there); once that far ahead it waits until the main thread is down to BATCHES_LOW, so the main
 * thread wakes it once per two batches (a notify costs it ≈ 1 ms), and still has two to work on
 * while the next is read. Six ahead (woken once per four) measured −1 to +14 % CPU against main
 * on 1M rows in four pairs of runs (noise ±10 %): not shown cheaper, so four it stays, as on main
 * (bench/RESULTS.md "Session 14").
 */
const BATCHES_AHEAD = 4;
const BATCHES_LOW = 2;

/** Reads the ledger records of `read` in this thread's snapshot and posts them in batches, in order. */
async function readLedger(read: LedgerRead): Promise<void> {
  ledgerRead = reader!.ledgerBatches(read);
  let posted = 0;
  for (const batch of ledgerRead) {
    post({ batch });
    posted++;
    // Lets the main thread's chunks in, to be written between batches.
    await nextTurn();
    if (posted - Atomics.load(taken, TAKEN) >= BATCHES_AHEAD) {
      // WANTED is set before TAKEN is read again (both sequentially consistent): either this
      // thread sees the main thread's count reach it, or the main thread sees WANTED and notifies.
      const wanted = posted - BATCHES_LOW;
      Atomics.store(taken, WANTED, wanted);
      for (;;) {
        const done = Atomics.load(taken, TAKEN);
        if (done >= wanted || failed) break;
        const wait = waitAsync(taken, TAKEN, done);
        if (wait.async) await wait.value;
      }
      Atomics.store(taken, WANTED, 0);
    }
    if (failed) return;
  }
  post({ batchesEnd: true });
  stopReading();
}

port.on('message', (m: ToWorker) => {
  if (failed) return;
  try {
    if ('chunk' in m) {
      enqueue(async () => {
        file.add(m.chunk, m.rows);
        await file.flush();
        post({ ack: true });
      });
    } else if ('end' in m) {
      enqueue(async () => {
        stopReading();
        post({ done: await file.close() });
        port.close();
      });
    } else if ('ranges' in m) {
      ranges = new WorkerRanges(m.ranges, m.claims);
    } else if ('ledger' in m) {
      if (m.ledger) readLedger(m.ledger).catch(fail);
      else stopReading();
    } else if ('go' in m) {
      if (m.go) ranges!.read().catch(fail);
      else stopReading();
    } else {
      ranges!.deliver(m.range, m.bytes);
    }
  } catch (err) {
    fail(err);
  }
});

// A second reader that cannot open is no failure: the main thread then reads every range.
if (ledger) {
  try {
    reader = openWorkerReader(ledger);
  } catch {
    reader = undefined;
  }
  post({ opened: reader !== undefined });
}
