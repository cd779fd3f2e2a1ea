/**
 * The request thread's side of the export worker: recovers jobs a previous process left
 * behind, starts the worker thread (restarting it if it dies), wakes it when a job is queued,
 * and stops it on shutdown. A job cut off by shutdown stays `processing` with this process as
 * its owner; the next start's `recoverInterruptedJobs` queues it again.
 */
import { Worker } from 'node:worker_threads';
import type { Engine } from '../engine/engine.js';
import { recoverInterruptedJobs } from '../engine/export-jobs.js';
import type { ExportWorkerData } from './export-worker.js';

const STOP_GRACE_MS = 2000;

export class ExportWorker {
  private worker: Worker | undefined;
  private stopping = false;

  private constructor(
    private readonly ledgerPath: string,
    private readonly onEvent: () => void,
  ) {}

  static create(engine: Engine, ledgerPath: string, onEvent: () => void): ExportWorker {
    recoverInterruptedJobs(engine);
    return new ExportWorker(ledgerPath, onEvent);
  }

  start(publicUrl: string): void {
    const data: ExportWorkerData = { ledgerPath: this.ledgerPath, publicUrl };
    const worker = new Worker(new URL('./export-worker.js', import.meta.url), { workerData: data });
    worker.on('message', (msg: { type: string }) => {
      if (msg.type === 'event') this.onEvent();
    });
    worker.on('error', (err) => process.stderr.write(`export worker failed: ${err.message}\n`));
    worker.on('exit', () => {
      if (!this.stopping) setTimeout(() => this.start(publicUrl), 1000).unref();
    });
    this.worker = worker;
  }

  wake(): void {
    this.worker?.postMessage({ type: 'wake' });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' });
    const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
