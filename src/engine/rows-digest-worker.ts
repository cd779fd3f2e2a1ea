/**
 * A worker thread computing a closed period's rows digest (rows-digest.ts) on its own snapshot of
 * the ledger, while the main thread writes the period's reports (engine/periods.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { endSnapshot, openSnapshotReader } from '../store/db.js';
import { rowsDigest } from './rows-digest.js';

const { ledgerPath, workspaceId, through } = workerData as { ledgerPath: string; workspaceId: string; through: string };
const db = openSnapshotReader(ledgerPath);
try {
  parentPort!.postMessage({ digest: rowsDigest(db, workspaceId, through) });
} catch (err) {
  parentPort!.postMessage({ error: String((err as Error)?.message ?? err) });
} finally {
  endSnapshot(db);
  db.close();
}
