/**
 * A worker thread counting a report's notes (report-notes.ts) on its own snapshot of the ledger
 * while the main thread writes the report (report-notes.ts notesOffThread). `state[0]` goes to 1
 * once its snapshot is taken, and to 2 after it posted the notes (or its failure) on its port,
 * whatever is thrown (its modules load in the try); `state[1]` counts its heartbeats (between
 * counts, after each chunk of rows), so the main thread never waits long for a worker that its
 * heap's limit stopped (no `finally` runs then).
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { JurisdictionCode } from '../core/jurisdictions.js';
import type { TxFilter } from '../core/filters.js';

const { ledgerPath, workspaceId, filter, jurisdiction, state, port } = workerData as {
  ledgerPath: string;
  workspaceId: string;
  filter: TxFilter;
  jurisdiction: JurisdictionCode | undefined;
  state: Int32Array;
  port: MessagePort;
};
try {
  const { endSnapshot, openSnapshotReader } = await import('../store/db.js');
  const { reportNotes } = await import('./report-notes.js');
  const db = openSnapshotReader(ledgerPath);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  try {
    port.postMessage({ notes: reportNotes(db, workspaceId, filter, jurisdiction, () => Atomics.add(state, 1, 1)) });
  } finally {
    endSnapshot(db);
    db.close();
  }
} catch (err) {
  port.postMessage({ error: String((err as Error)?.message ?? err) });
} finally {
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
  port.close();
}
