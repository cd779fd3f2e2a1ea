/**
 * The worker thread of a large export's file (chunked-file.ts OffThreadFile): transforms,
 * encodes, hashes and writes each chunk it is sent, in order, acknowledging each one so the
 * reading thread can keep a few chunks in flight and no more.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkedFile, type ChunkTransform, type FromWorker, type ToWorker } from './chunked-file.js';
import { NotExact } from './raw-rows.js';

const port = parentPort!;
const { path, transform } = workerData as { path: string; transform?: ChunkTransform };
const file = new ChunkedFile(path, transform);

async function handle(m: ToWorker): Promise<FromWorker> {
  if ('end' in m) return { done: await file.close() };
  file.add(m.chunk);
  await file.flush();
  return { ack: true };
}

// One message at a time, in the order sent; after a failure the rest are ignored.
let queue = Promise.resolve(true);
port.on('message', (m: ToWorker) => {
  queue = queue.then(async (ok) => {
    if (!ok) return false;
    try {
      const reply = await handle(m);
      port.postMessage(reply);
      if ('done' in reply) port.close();
      return true;
    } catch (err) {
      file.destroy();
      port.postMessage({ failed: (err as Error).message, notExact: err instanceof NotExact } satisfies FromWorker);
      return false;
    }
  });
});
