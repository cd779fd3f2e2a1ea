/**
 * Report notes (docs/periods.md, "Report notes"): a report over a ledger with `check` findings
 * that make its figures incomplete says so, naming the kind and how many; `strict` refuses such a
 * report with UNRESOLVED_FINDINGS. NOTED is the one list of those kinds: a kind added here (e.g.
 * `unrecorded_allocation`) is counted, noted and refused by every report and by `strict`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, type ResourceLimits, Worker } from 'node:worker_threads';
import type { JurisdictionCode } from '../core/jurisdictions.js';
import type { Db } from '../store/db.js';
import type { CheckPeriod } from '../store/checks.js';
import type { CheckKind } from '../core/check-kinds.js';
import type { TxFilter } from '../core/filters.js';
import type { ReportNote } from '../core/types.js';
import { TxaError } from '../core/errors.js';
import { rowKind, unmatchedTransferCount } from './row-findings.js';
import { parseDay } from '../core/dates.js';
import { WALLET_SCOPE_FROM } from '../core/lots.js';
import { firstUnallocatedDisposal } from '../store/lots.js';

interface NotedKind {
  /** How many findings of the kind the report's period and wallets have (`tick` called now and then while a count runs long). */
  count(db: Db, workspaceId: string, p: CheckPeriod, tick?: () => void): number;
  /** What the note says of `n` of them. */
  says(n: number): string;
}

/** `n` rows and the verb agreeing with them: `1 row has`, `2 rows have`. */
const rows = (n: number, one: string, many: string) => `${n} ${n === 1 ? `row ${one}` : `rows ${many}`}`;

/** The kinds of finding a report notes, in the order notes are printed. */
export const NOTED: Partial<Record<CheckKind, NotedKind>> = {
  unmatched_transfer: {
    count: (db, ws, p, tick) => unmatchedTransferCount(db, ws, p, { tick }),
    says: (n) => `${rows(n, 'looks', 'look')} like own transfers not matched (unmatched_transfer): each is taxed as a disposal or income until matched`,
  },
  unpriced: {
    count: (db, ws, p) => rowKind(db, ws, p, undefined, 'unpriced', 0).count,
    says: (n) => `${rows(n, 'has', 'have')} no fiat value (unpriced): their proceeds, costs or income are missing from the figures`,
  },
  unrecorded_allocation: {
    count: (db, ws, p) => (firstUnallocatedDisposal(db, ws, parseDay(WALLET_SCOPE_FROM)!, p.startTs, p.endTs) ? 1 : 0),
    says: () =>
      `no recorded allocation (unrecorded_allocation): the lots pooled before ${WALLET_SCOPE_FROM} were split between wallets by the fifo order's allocation; record one with txa lots allocate`,
  },
};

/** A report whose period and filters match no row: only `strict` refuses it (its figures would be zeros, docs/check.md `empty_period`). */
export const EMPTY_PERIOD_NOTE: ReportNote = {
  kind: 'empty_period',
  count: 1,
  message: 'no rows match the period and filters (empty_period): the report would be all zeros; txa check names stale syncs',
};

/** The notes of a report over `filter` (its period and wallets): one per kind with findings; `tick` is called between counts and within long ones. */
export function reportNotes(db: Db, workspaceId: string, filter: TxFilter, jurisdiction: JurisdictionCode = 'us', tick?: () => void): ReportNote[] {
  const p: CheckPeriod = { startTs: filter.startTs, endTs: filter.endTs, ...(filter.walletIds && { walletIds: filter.walletIds }) };
  const notes: ReportNote[] = [];
  for (const [kind, noted] of Object.entries(NOTED) as [CheckKind, NotedKind][]) {
    // The allocation splits the US pool between wallets in 2025; other jurisdictions' rules have none.
    if (kind === 'unrecorded_allocation' && jurisdiction !== 'us') continue;
    tick?.();
    const count = noted.count(db, workspaceId, p, tick);
    if (count > 0) notes.push({ kind, count, message: `${noted.says(count)}; txa check lists them` });
  }
  return notes;
}

/** `strict`: a report with notes is refused, naming them; nothing is written. */
export function refuseNotes(notes: readonly ReportNote[]): void {
  if (notes.length === 0) return;
  throw new TxaError(
    'UNRESOLVED_FINDINGS',
    `the report's period has unresolved findings: ${notes.map((n) => `${n.count} ${n.kind}`).join(', ')}; nothing was written`,
    {
      field: 'options.strict',
      extra: { findings: notes.map(({ kind, count }) => ({ kind, count })) },
      hint: 'See them with: txa check --period …; resolve them, or export without --strict to get the report with its notes',
    },
  );
}

/** The worker's compiled module (beside this one in dist/; absent where the sources run, as under vitest: the notes are then counted on the thread that asks). */
const NOTES_WORKER = new URL('./notes-worker.js', import.meta.url);

/**
 * The worker's heap. The count makes short-lived objects (a chunk of free rows at a time) and
 * holds a few chunks and one proposal window (≈ 20 MB on the realistic 1M ledger): V8's default
 * young generation (up to 48 MB) and its growth of the old one for a heap without a limit (to
 * ~3× what survives) added ~100 MB to the report's peak RSS. A small young generation costs more
 * scavenges, no failure; under a limit V8 grows the old generation less, and a worker that does
 * reach it stops (its heartbeat stops: the notes are then counted on the report's thread).
 * bench/RESULTS.md "Session 14".
 */
export const NOTES_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** While the report waits for the notes: how often it looks at the worker's heartbeat, and how long without one means the worker stopped. */
const BEAT_LOOK_MS = 500;
const STILL_MS = 30_000;

/** How long the report waits for the worker's snapshot before it counts the notes itself. */
const SNAPSHOT_WAIT_MS = 5000;

/**
 * The notes of a report, counted by a worker thread on its own snapshot while this thread writes
 * the report (on the realistic ledger the count of unmatched transfers, a pass over every free
 * row, costs a fifth of a tax CSV's time: bench/RESULTS.md "Session 11"). Called before the
 * report writes anything: it waits for the worker's snapshot, which is the report's when no
 * commit came in since the report's was taken (`unchanged`); else, or when the worker fails, the
 * notes are counted on this thread when asked. `heap`: the worker's limits (NOTES_HEAP; tests set
 * one it cannot count under).
 */
export function notesOffThread(
  ledgerPath: string,
  unchanged: () => boolean,
  workspaceId: string,
  filter: TxFilter,
  jurisdiction: JurisdictionCode | undefined,
  onThread: () => ReportNote[],
  heap: ResourceLimits = NOTES_HEAP,
): () => ReportNote[] {
  if (!existsSync(fileURLToPath(NOTES_WORKER))) return onThread;
  // [0] the worker's phase (0 starting, 1 snapshot taken, 2 answered), [1] its heartbeat.
  const state = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(NOTES_WORKER, {
    workerData: { ledgerPath, workspaceId, filter, jurisdiction, state, port: port2 },
    transferList: [port2],
    resourceLimits: heap,
  });
  worker.unref();
  // A failure is told on the port too, and the notes are then counted here; a worker stopped by
  // its heap's limit tells nothing: its exit, when this thread saw it, or its heartbeat's stop.
  let exited = false;
  worker.on('error', () => {});
  worker.on('exit', () => {
    exited = true;
  });
  Atomics.wait(state, 0, 0, SNAPSHOT_WAIT_MS);
  const same = Atomics.load(state, 0) !== 0 && unchanged();
  let notes: ReportNote[] | undefined;
  return () => {
    if (notes) return notes;
    let answer: { notes?: ReportNote[] } | undefined;
    if (same && waitForWorker(state, () => exited)) answer = receiveMessageOnPort(port1)?.message as { notes?: ReportNote[] } | undefined;
    port1.close();
    notes = answer?.notes ?? onThread();
    return notes;
  };
}

/** Waits for the worker's answer (phase 2): false when it exited without one or its heartbeat stopped for STILL_MS. */
function waitForWorker(state: Int32Array, exited: () => boolean): boolean {
  let beats = Atomics.load(state, 1);
  let still = 0;
  while (Atomics.load(state, 0) !== 2) {
    if (exited()) return Atomics.load(state, 0) === 2;
    if (Atomics.wait(state, 0, 1, BEAT_LOOK_MS) !== 'timed-out') continue;
    const now = Atomics.load(state, 1);
    if (now !== beats) {
      beats = now;
      still = 0;
    } else if ((still += BEAT_LOOK_MS) >= STILL_MS) return false;
  }
  return true;
}
