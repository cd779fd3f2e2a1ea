/**
 * The request thread's side of the export worker: recovers jobs a previous process left
 * behind, starts the worker thread (restarting it if it dies), hands it export creations, and
 * stops it on shutdown. A job cut off by shutdown stays `processing` with this process as its
 * owner; the next start's `recoverInterruptedJobs` queues an e-mail or webhook job again (a
 * download's request is gone: that one is failed). Wallet syncs run in the same thread; one cut off
 * by shutdown or a crash is queued again at the next start and goes on from its cursors.
 */
import { Worker } from 'node:worker_threads';
import type { Engine } from '../engine/engine.js';
import { recoverInterruptedJobs } from '../engine/export-jobs.js';
import { recoverInterruptedSyncs } from '../sync/sync-jobs.js';
import { TxaError } from '../core/errors.js';
import type { ExportRecord } from '../core/types.js';
import type { ScheduleRun } from '../core/schedule-schema.js';
import type { ExportWorkerData, FromWorker, ToWorker } from './export-worker.js';

const STOP_GRACE_MS = 2000;

interface Pending {
  /** Takes the answer whose type the asker named (`ask<T>`): an export record or a schedule's run. */
  resolve: (answer: never) => void;
  reject: (err: TxaError) => void;
}

export class ExportWorker {
  private worker: Worker | undefined;
  private stopping = false;
  private nextRequest = 1;
  private readonly pending = new Map<number, Pending>();

  private constructor(
    private readonly ledgerPath: string,
    private readonly allowPrivateWebhooks: boolean,
    private readonly etherscanKey: string | undefined,
    private readonly onEvent: () => void,
  ) {}

  static create(engine: Engine, ledgerPath: string, allowPrivateWebhooks: boolean, etherscanKey: string | undefined, onEvent: () => void): ExportWorker {
    recoverInterruptedJobs(engine);
    recoverInterruptedSyncs(engine);
    return new ExportWorker(ledgerPath, allowPrivateWebhooks, etherscanKey, onEvent);
  }

  start(publicUrl: string): void {
    const data: ExportWorkerData = { ledgerPath: this.ledgerPath, publicUrl, allowPrivateWebhooks: this.allowPrivateWebhooks, etherscanKey: this.etherscanKey };
    const worker = new Worker(new URL('./export-worker.js', import.meta.url), { workerData: data });
    worker.on('message', (msg: FromWorker) => this.receive(msg));
    worker.on('error', (err) => process.stderr.write(`export worker failed: ${err.message}\n`));
    worker.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new TxaError('INTERNAL_ERROR', 'internal error'));
      this.pending.clear();
      if (!this.stopping) setTimeout(() => this.start(publicUrl), 1000).unref();
    });
    this.worker = worker;
  }

  private receive(msg: FromWorker): void {
    if (msg.type === 'event') return this.onEvent();
    const p = this.pending.get(msg.requestId);
    this.pending.delete(msg.requestId);
    if (msg.type === 'created') p?.resolve(msg.record as never);
    else if (msg.type === 'ran') p?.resolve(msg.run as never);
    else p?.reject(TxaError.fromBody(msg.error));
  }

  private send(msg: ToWorker): void {
    this.worker?.postMessage(msg);
  }

  /** Creates an export in the worker (a `download` export is written there too). */
  createExport(workspaceId: string, body: unknown): Promise<ExportRecord> {
    return this.ask((requestId) => ({ type: 'create', requestId, workspaceId, body }));
  }

  /** Makes a schedule's run now, in the worker (docs/server.md "Scheduled reports"). */
  runSchedule(workspaceId: string, scheduleId: string, actor: string): Promise<ScheduleRun> {
    return this.ask((requestId) => ({ type: 'run-schedule', requestId, workspaceId, scheduleId, actor }));
  }

  private ask<T>(message: (requestId: number) => ToWorker): Promise<T> {
    if (!this.worker || this.stopping) return Promise.reject(new TxaError('INTERNAL_ERROR', 'internal error'));
    const requestId = this.nextRequest++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (answer: never) => void, reject });
      this.send(message(requestId));
    });
  }

  /** Tells the worker a wallet sync was queued. */
  wakeSync(): void {
    this.send({ type: 'sync' });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.send({ type: 'stop' });
    const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
