/** The digest of a closed period's rows (docs/periods.md, "Digests"), apart so its worker thread (rows-digest-worker.ts) loads little. */
import { createHash, hash as oneHash } from 'node:crypto';
import { readThenKeep, type Db } from '../store/db.js';
import { digestRows, endOfDay, hashedDigestRows, storeRowHashes } from '../store/periods.js';

/**
 * The version of the rows digest a close records now (`digests.rows_version`; a close without it
 * is version 1). `check` verifies each close by the version it was recorded with.
 */
export const ROWS_DIGEST_VERSION = 2;

/** The rows digest of the given version (1: rowsDigest; 2: hashedRowsDigest, keeping the hashes it makes where it can). */
export function rowsDigestOf(db: Db, workspaceId: string, through: string, version: number | undefined): string {
  return version === 2 ? keptRowsDigest(db, workspaceId, through) : rowsDigest(db, workspaceId, through);
}

/**
 * Version 1: SHA-256 of one JSON line per row (store/periods.ts digestRows), in time order and,
 * within one second, in the order of the lines themselves (their chain, address, hash and
 * transfer key come first after the time): no id decides it. Lines are hashed 1,000 at a time.
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

/**
 * Rows whose hash a version-2 digest made (none was kept): their rowids, and the hashes packed 32
 * bytes each into blocks of HASH_BLOCK (a first close of a million rows holds them all until it
 * keeps them: about 40 MB so, 3× that as one Buffer per hash).
 */
interface Made {
  rowids: number[];
  blocks: Buffer[];
}
const HASH_BLOCK = 65_536;

/** The i-th hash made. */
const madeHash = (made: Made, i: number): Buffer => {
  const at = (i % HASH_BLOCK) * 32;
  return made.blocks[Math.floor(i / HASH_BLOCK)]!.subarray(at, at + 32);
};

/**
 * Version 2: SHA-256 of the rows' own hashes (32 bytes each, the SHA-256 of the row's version-1
 * line), in time order and within one second in the order of the hashes: no id decides it, as in
 * version 1. A row's hash is kept with the row (migration 32), so only the rows without one (new,
 * or changed since: triggers clear it) have their line made and hashed; the rest is one read of
 * an index (store/periods.ts hashedDigestRows).
 */
export function hashedRowsDigest(db: Db, workspaceId: string, through: string): { digest: string; made: Made } {
  const hash = createHash('sha256');
  const made: Made = { rowids: [], blocks: [] };
  // The hashes of one second as upper-case hex, which sorts as the bytes do; sorted only when one was made here.
  let second: string[] = [];
  let unsorted = false;
  let ts: number | undefined;
  let pending: string[] = [];
  const flush = () => {
    if (unsorted) second.sort();
    for (const h of second) pending.push(h);
    second = [];
    unsorted = false;
    if (pending.length >= 4096) {
      hash.update(pending.join(''), 'hex');
      pending = [];
    }
  };
  for (const [time, kept, line, rowid] of hashedDigestRows(db, workspaceId, endOfDay(through))) {
    if (time !== ts) {
      flush();
      ts = time;
    }
    if (line === null) {
      second.push(kept);
      continue;
    }
    const hex = (oneHash('sha256', line, 'hex') as string).toUpperCase();
    const n = made.rowids.push(rowid) - 1;
    if (n % HASH_BLOCK === 0) made.blocks.push(Buffer.allocUnsafe(HASH_BLOCK * 32));
    madeHash(made, n).write(hex, 'hex');
    second.push(hex);
    unsorted = true;
  }
  flush();
  hash.update(pending.join(''), 'hex');
  return { digest: hash.digest('hex'), made };
}

/** The version-2 digest, keeping the hashes it made with their rows (read and kept in one transaction, where the connection may write). */
export function keptRowsDigest(db: Db, workspaceId: string, through: string): string {
  return readThenKeep(
    db,
    () => hashedRowsDigest(db, workspaceId, through),
    ({ made }) => made.rowids.length > 0 && storeRowHashes(db, made.rowids, (i) => madeHash(made, i)),
  ).digest;
}
