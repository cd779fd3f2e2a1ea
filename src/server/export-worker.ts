/**
 * The export worker thread of `txa serve`: its own connection to the same ledger. It drains the
 * export queue one job at a time and also creates exports asked for by POST /exports (a
 * `download` export is written at once), so a 50,000-row PDF never stalls the request thread.
 * Progress is written to the export record by the job itself, so GET /exports/:id shows it.
 * Beside it, a second loop drains the wallet sync queue one sync at a time (src/sync/sync-jobs.ts):
 * syncs mostly wait on the explorer, so they share the thread rather than need one of their own.
 * A third loop makes the due runs of scheduled reports (engine/schedules.ts), each a queued export
 * the first loop then writes, and POST /schedules/:id/run makes its run here too.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { claimNextJob, runExportJob } from '../engine/export-jobs.js';
import { createExport } from '../engine/exports.js';
import { createDueRuns, runSchedule } from '../engine/schedules.js';
import { claimNextSync, runSyncJob } from '../sync/sync-jobs.js';
import { syncSettings } from '../sync/settings.js';
import { TxaError, type ErrorBody } from '../core/errors.js';
import type { ExportRecord } from '../core/types.js';
import type { ScheduleRun } from '../core/schedule-schema.js';

export interface ExportWorkerData {
  ledgerPath: string;
  publicUrl: string;
  /** serve's --allow-private-webhooks: otherwise an export's webhook call is guarded. */
  allowPrivateWebhooks: boolean;
  /** The profile's `etherscan_api_key` (TXA_ETHERSCAN_API_KEY in the environment wins). */
  etherscanKey: string | undefined;
}

/** Messages to the worker: `sync` says a wallet sync was queued. */
export type ToWorker =
  | { type: 'stop' }
  | { type: 'sync' }
  | { type: 'create'; requestId: number; workspaceId: string; body: unknown }
  | { type: 'run-schedule'; requestId: number; workspaceId: string; scheduleId: string; actor: string };
/** Messages from the worker. */
export type FromWorker =
  | { type: 'event' }
  | { type: 'created'; requestId: number; record: ExportRecord }
  | { type: 'ran'; requestId: number; run: ScheduleRun }
  | { type: 'failed'; requestId: number; error: ErrorBody };

const IDLE_POLL_MS = 1000;
/**
 * How often the scheduler looks for due scheduled reports (docs/server.md "Scheduled reports"),
 * and at start: a period ends at midnight, so a report is made within this of its time.
 */
const SCHEDULE_POLL_MS = 30_000;
/**
 * The nice value of this thread and of the threads it starts (an export's reading and file
 * workers inherit it): the request thread, at the process's own, then gets the CPU first, so a
 * list request waits for no export (bench/http-export.mjs). Only on Linux is the nice value
 * per thread; elsewhere it would lower the whole process, so the threads are left as they are.
 */
const BACKGROUND_NICE = 5;
if (process.platform === 'linux') setPriority(BACKGROUND_NICE);
const { ledgerPath, publicUrl, allowPrivateWebhooks, etherscanKey } = workerData as ExportWorkerData;
const engine = Engine.open(ledgerPath, { actor: 'api', publicBaseUrl: publicUrl });
engine.attachmentUrl = (id) => `${publicUrl}/api/v1/attachments/${id}`;
const post = (msg: FromWorker) => parentPort?.postMessage(msg);
// An event appended here (export.completed) has deliveries: the request thread sends them now.
engine.events.onAppend(() => post({ type: 'event' }));

let stopping = false;
const creating = new Set<Promise<void>>();

/** A loop's pause between polls of its queue, cut short by `wake`. */
class Idle {
  private wakeUp: (() => void) | undefined;
  constructor(private readonly pollMs = IDLE_POLL_MS) {}
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.pollMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wakeUp = undefined));
  }
  wake(): void {
    this.wakeUp?.();
  }
}
const exportIdle = new Idle();
const syncIdle = new Idle();
const scheduleIdle = new Idle(SCHEDULE_POLL_MS);
/** Runs a quota held back (more schedules due at once than the tier's concurrent exports) are tried this soon. */
const heldBackIdle = new Idle(2_000);

async function create(requestId: number, workspaceId: string, body: unknown): Promise<void> {
  try {
    const record = await createExport(engine, workspaceId, body);
    post({ type: 'created', requestId, record });
    if (record.status === 'queued') exportIdle.wake();
  } catch (err) {
    const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', 'internal error', { cause: err });
    post({ type: 'failed', requestId, error: e.toBody() });
  }
}

/** `POST /schedules/:id/run`: the run's export made here, as POST /exports makes its own (the count of its rows is no request's wait). */
async function runNow(requestId: number, workspaceId: string, scheduleId: string, actor: string): Promise<void> {
  try {
    const run = await runSchedule(engine.as(actor), workspaceId, scheduleId);
    post({ type: 'ran', requestId, run });
    exportIdle.wake();
  } catch (err) {
    const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', 'internal error', { cause: err });
    post({ type: 'failed', requestId, error: e.toBody() });
  }
}

parentPort?.on('message', (msg: ToWorker) => {
  if (msg.type === 'run-schedule') {
    const p = runNow(msg.requestId, msg.workspaceId, msg.scheduleId, msg.actor).finally(() => creating.delete(p));
    creating.add(p);
    return;
  }
  if (msg.type === 'create') {
    const p = create(msg.requestId, msg.workspaceId, msg.body).finally(() => creating.delete(p));
    creating.add(p);
    return;
  }
  if (msg.type === 'stop') stopping = true;
  if (msg.type !== 'sync') exportIdle.wake();
  if (msg.type === 'stop') {
    scheduleIdle.wake();
    heldBackIdle.wake();
  }
  syncIdle.wake();
});

async function exportLoop(): Promise<void> {
  while (!stopping) {
    const id = claimNextJob(engine);
    if (id === null) await exportIdle.wait();
    else await runExportJob(engine, id, undefined, { refusePrivateTargets: !allowPrivateWebhooks });
  }
}

async function syncLoop(): Promise<void> {
  // serve checked these settings at start; the environment is the thread's copy of the process's.
  const settings = syncSettings(process.env, etherscanKey);
  while (!stopping) {
    const id = claimNextSync(engine);
    if (id === null) await syncIdle.wait();
    else await runSyncJob(engine, id, settings);
  }
}

/**
 * Makes the due runs of scheduled reports, here in the worker, off the request thread: each is a
 * queued export this thread's export loop then writes and delivers. A run that could not be made
 * is said once on stderr per schedule, period and code, and tried again at each check.
 */
async function scheduleLoop(): Promise<void> {
  const said = new Set<string>();
  while (!stopping) {
    let heldBack = false;
    try {
      const { runs, failures } = await createDueRuns(engine);
      if (runs.length > 0) exportIdle.wake();
      heldBack = failures.some((f) => f.error.status === 429);
      for (const f of failures) {
        if (f.error.status === 429) continue;
        const key = `${f.schedule_id} ${f.period_start} ${f.error.code}`;
        if (said.has(key)) continue;
        said.add(key);
        process.stderr.write(`schedule ${f.schedule_id}: the run of the period from ${f.period_start} failed: ${f.error.code}: ${f.error.message}\n`);
      }
    } catch (err) {
      process.stderr.write(`scheduler failed: ${(err as Error).message}\n`);
    }
    if (!stopping) await (heldBack ? heldBackIdle : scheduleIdle).wait();
  }
}

await Promise.all([exportLoop(), syncLoop(), scheduleLoop()]);
await Promise.allSettled(creating);
engine.close();
parentPort?.close(); // lets the thread end
