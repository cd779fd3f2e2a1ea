/**
 * Proposed bridges and exchange transfers (docs/accounting.md "Own transfers", "Exchange
 * accounts") among a workspace's free rows: one walk of the covering index tx_free_legs reads
 * each free row's few columns in time order, then the rule (accounting/transfers.ts proposals)
 * runs over them, reading an outflow's network fee only when a proposal turns on it.
 * `txa transfers list --status candidate` and `txa check` both propose here.
 */
import type { Db } from '../store/db.js';
import { proposals, type Pair } from '../accounting/transfers.js';
import { freeLegs, networkFeeByRowid, rejections, type FreeLegRow } from '../store/transfers.js';

/** Outflows whose network fee is kept once read: a proposal asks again only within its window, so the cache is emptied when full. */
const FEES_KEPT = 10_000;

/**
 * Hands each proposal among the free rows of a time range (start inclusive, end exclusive) to
 * `visit`, in the order the inflows arrive, none kept: a pass over the whole ledger holds one
 * chunk of free rows (`chunk` of them: store/transfers.ts freeLegs, `tick` called after each)
 * and one proposal window (the report notes' count, engine/row-findings.ts).
 */
export function eachProposedBridge(
  db: Db,
  workspaceId: string,
  range: { startTs?: number; endTs?: number },
  visit: (pair: Pair<FreeLegRow>) => void,
  chunk?: number,
  tick?: () => void,
): void {
  // One read snapshot (a savepoint inside the caller's transaction): the fees read after the walk are of the rows it saw.
  db.transaction(() => {
    const rows = freeLegs(db, workspaceId, range, chunk, tick);
    const rejected = rejections(db, workspaceId);
    const fees = new Map<number, string | null>();
    const fee = (out: FreeLegRow) => {
      let f = fees.get(out.rowid);
      if (f === undefined) {
        if (fees.size >= FEES_KEPT) fees.clear();
        fees.set(out.rowid, (f = networkFeeByRowid(db, out.rowid)));
      }
      return f;
    };
    for (const pair of proposals(rows, { value: (row) => row.value, fee, rejected: rejected.size === 0 ? () => false : (key) => rejected.has(key) })) {
      visit(pair);
    }
  })();
}

/** The proposals among the free rows of a time range (start inclusive, end exclusive), in the order the inflows arrive. */
export function proposedBridges(db: Db, workspaceId: string, range: { startTs?: number; endTs?: number } = {}): Pair<FreeLegRow>[] {
  const pairs: Pair<FreeLegRow>[] = [];
  eachProposedBridge(db, workspaceId, range, (pair) => pairs.push(pair));
  return pairs;
}
