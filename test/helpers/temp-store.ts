/** What the tests of a bulk import's index rebuild observe of it (src/store/bulk-write.ts, docs/storage.md "Opening"). */
import type { Db } from '../../src/store/db.js';

/**
 * From now on, the connection's `temp_store` (1 on disk, 2 in memory) as each CREATE INDEX it
 * runs starts: the returned array fills as they run.
 */
export function tempStoreAtCreate(db: Db): number[] {
  const seen: number[] = [];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    if (sql.startsWith('CREATE INDEX')) seen.push(db.pragma('temp_store', { simple: true }) as number);
    return exec(sql);
  };
  return seen;
}
