/**
 * The export file worker's own reader of a ledger (exporters/file-worker.ts): a read-only
 * connection in a read transaction opened on the ledger's path (db.ts openSnapshotReader), so its
 * snapshot is taken at once, and the reads the worker makes on it.
 */
import { endSnapshot, openSnapshotReader } from './db.js';
import type { KeyRanges, RangeQuery } from './key-ranges.js';
import { ledgerBatches, type LedgerBatch, type LedgerRead } from './ledger-read.js';
import { rangeReader, type RangeReader } from './range-reader.js';
import { useTagSets, type TagSets } from './tag-sets.js';

export interface WorkerReader {
  /** Range reads of an export's rows; `tagSets`, when the query reads them, are defined on this connection first. */
  ranges(ranges: KeyRanges, query: RangeQuery, packed?: RangeQuery, tagSets?: TagSets): RangeReader;
  /** A tax report's ledger records, in batches (ledger-read.ts). */
  ledgerBatches(read: LedgerRead): Generator<LedgerBatch>;
  /** Ends the read transaction and closes the connection; its statements must be done (a generator returned). */
  close(): void;
}

export function openWorkerReader(path: string): WorkerReader {
  const db = openSnapshotReader(path);
  return {
    ranges(ranges, query, packed, tagSets) {
      if (tagSets) useTagSets(db, tagSets);
      return rangeReader(db, ranges.bounds, query, packed);
    },
    ledgerBatches: (read) => ledgerBatches(db, read),
    close() {
      endSnapshot(db);
      db.close();
    },
  };
}
