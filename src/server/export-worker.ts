/**
 * The export worker thread of `txa serve`: its own connection to the same ledger. It drains the
 * export queue one job at a time and also creates exports asked for by POST /exports (a
 * `download` export is written at once), so a 50,000-row PDF never stalls the request thread.
 * Progress is written to the export record by the job itself, so GET /exports/:id shows it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { claimNextJob, runExportJob } from '../engine/export-jobs.js';
import { createExport } from '../engine/exports.js';
import { TxaError, type ErrorBody } from '../core/errors.js';
import type { ExportRecord } from '../core/types.js';

export interface ExportWorkerData {
  ledgerPath: string;
  publicUrl: string;
  /** serve's --allow-private-webhooks: otherwise an export's webhook call is guarded. */
  allowPrivateWebhooks: boolean;
}

/** Messages to the worker. */
export type ToWorker = { type: 'stop' } | { type: 'create'; requestId: number; workspaceId: string; body: unknown };
/** Messages from the worker. */
export type FromWorker =
  | { type: 'event' }
  | { type: 'created'; requestId: number; record: ExportRecord }
  | { type: 'failed'; requestId: number; error: ErrorBody };

const IDLE_POLL_MS = 1000;
const { ledgerPath, publicUrl, allowPrivateWebhooks } = workerData as ExportWorkerData;
const engine = Engine.open(ledgerPath, { actor: 'api', publicBaseUrl: publicUrl });
engine.attachmentUrl = (id) => `${publicUrl}/api/v1/attachments/${id}`;
const post = (msg: FromWorker) => parentPort?.postMessage(msg);
// An event appended here (export.completed) has deliveries: the request thread sends them now.
engine.events.onAppend(() => post({ type: 'event' }));

let stopping = false;
let wake: (() => void) | undefined;
const creating = new Set<Promise<void>>();

async function create(requestId: number, workspaceId: string, body: unknown): Promise<void> {
  try {
    const record = await createExport(engine, workspaceId, body);
    post({ type: 'created', requestId, record });
    if (record.status === 'queued') wake?.();
  } catch (err) {
    const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', 'internal error', { cause: err });
    post({ type: 'failed', requestId, error: e.toBody() });
  }
}

parentPort?.on('message', (msg: ToWorker) => {
  if (msg.type === 'create') {
    const p = create(msg.requestId, msg.workspaceId, msg.body).finally(() => creating.delete(p));
    creating.add(p);
    return;
  }
  if (msg.type === 'stop') stopping = true;
  wake?.();
});

async function idle(): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, IDLE_POLL_MS);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  wake = undefined;
}

while (!stopping) {
  const id = claimNextJob(engine);
  if (id === null) await idle();
  else await runExportJob(engine, id, undefined, { refusePrivateTargets: !allowPrivateWebhooks });
}
await Promise.allSettled(creating);
engine.close();
parentPort?.close(); // lets the thread end
