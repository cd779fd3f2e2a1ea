/** The digest of a closed period's rows (docs/periods.md, "Digests"), apart so its worker thread (rows-digest-worker.ts) loads little. */
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import { digestRows, endOfDay } from '../store/periods.js';

/**
 * The digest of a closed period's rows: SHA-256 of one JSON line per row (store/periods.ts
 * digestRows), in time order and, within one second, in the order of the lines themselves (their
 * chain, address, hash and transfer key come first after the time): no id decides it. Lines are
 * hashed 1,000 at a time.
 */
export function rowsDigest(db: Db, workspaceId: string, through: string): string {
  const hash = createHash('sha256');
  let second: string[] = [];
  let ts: number | undefined;
  let pending: string[] = [];
  const flush = () => {
    if (second.length > 1) second.sort();
    for (const line of second) pending.push(line);
    second = [];
    if (pending.length >= 1000) {
      hash.update(pending.join(''));
      pending = [];
    }
  };
  for (const [time, line] of digestRows(db, workspaceId, endOfDay(through))) {
    if (time !== ts) {
      flush();
      ts = time;
    }
    second.push(`${line}\n`);
  }
  flush();
  hash.update(pending.join(''));
  return hash.digest('hex');
}
