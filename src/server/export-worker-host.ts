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
import type { ExportWorkerData, FromWorker, ToWorker } from './export-worker.js';

const STOP_GRACE_MS = 2000;

interface Pending {
  resolve: (record: ExportRecord) => void;
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
    if (msg.type === 'created') p?.resolve(msg.record);
    else p?.reject(TxaError.fromBody(msg.error));
  }

  private send(msg: ToWorker): void {
    this.worker?.postMessage(msg);
  }

  /** Creates an export in the worker (a `download` export is written there too). */
  createExport(workspaceId: string, body: unknown): Promise<ExportRecord> {
    if (!this.worker || this.stopping) return Promise.reject(new TxaError('INTERNAL_ERROR', 'internal error'));
    const requestId = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      this.send({ type: 'create', requestId, workspaceId, body });
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
