/**
 * The export worker thread of `txa serve`: its own connection to the same ledger, draining the
 * export queue one job at a time, so a 50,000-row PDF never stalls the request thread. Progress
 * is written to the export record by the job itself, so GET /exports/:id shows it while it runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { claimNextJob, runExportJob } from '../engine/export-jobs.js';
import { scheduleDeliveriesOnAppend } from '../engine/webhooks.js';

export interface ExportWorkerData {
  ledgerPath: string;
  publicUrl: string;
}

const IDLE_POLL_MS = 1000;
const { ledgerPath, publicUrl } = workerData as ExportWorkerData;
const engine = Engine.open(ledgerPath, { actor: 'api', publicBaseUrl: publicUrl });
engine.attachmentUrl = (id) => `${publicUrl}/api/v1/attachments/${id}`;
// Events appended here (export.completed) get their webhook deliveries like any other.
scheduleDeliveriesOnAppend(engine);
engine.events.onAppend(() => parentPort?.postMessage({ type: 'event' }));

let stopping = false;
let wake: (() => void) | undefined;
parentPort?.on('message', (msg: { type: string }) => {
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
  else await runExportJob(engine, id);
}
engine.close();
parentPort?.close(); // lets the thread end

