/**
 * Proposed bridges (docs/accounting.md "Own transfers") among a workspace's free
 * rows: SQLite walks the rows in time order and a float pre-check (accounting/transfers.ts
 * BridgeSieve) keeps those that may pair; only they are read in full for the exact rule
 * (bridgeCandidates). `txa transfers list --status candidate` and `txa check` both propose here.
 */
import type { Db } from '../store/db.js';
import { BridgeSieve, bridgeCandidates, type Pair } from '../accounting/transfers.js';
import { legsByRowid, rejections, visitFreeLegs, withNetworkFees } from '../store/transfers.js';

/** The bridges proposed among the free rows of a time range (start inclusive, end exclusive), in the order the inflows arrive. */
export function proposedBridges(db: Db, workspaceId: string, range: { startTs?: number; endTs?: number } = {}): Pair[] {
  // One read snapshot (a savepoint inside the caller's transaction): the rowids the walk keeps name the same rows when read.
  return db.transaction(() => {
    const sieve = new BridgeSieve();
    visitFreeLegs(db, workspaceId, range, (rowid, ts, inflow, chain, symbol, amount) => sieve.add(rowid, ts, inflow, chain, symbol, amount));
    const rejected = rejections(db, workspaceId);
    // An exchange transfer's tolerance counts the network fee: read for the kept outflows only.
    return [...bridgeCandidates(withNetworkFees(db, legsByRowid(db, sieve.kept)), (key) => rejected.has(key))];
  })();
}
