/**
 * A worker thread computing a closed period's rows digest (rows-digest.ts) on its own connection
 * to the ledger, while the main thread writes the period's reports (engine/periods.ts). Version 2
 * keeps the row hashes it makes in the ledger, read and written in one transaction of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openCacheWriter } from '../store/db.js';
import { rowsDigestOf } from './rows-digest.js';

const { ledgerPath, workspaceId, through, version } = workerData as { ledgerPath: string; workspaceId: string; through: string; version?: number };
const db = openCacheWriter(ledgerPath);
try {
  parentPort!.postMessage({ digest: rowsDigestOf(db, workspaceId, through, version) });
} catch (err) {
  parentPort!.postMessage({ error: String((err as Error)?.message ?? err) });
} finally {
  db.close();
}
