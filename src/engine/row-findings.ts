/**
 * The row findings of `txa check` that reports also note (docs/check.md; docs/periods.md, "Report
 * notes"): rows of a row kind in a period, and own transfers not matched. In the engine, below
 * `checks/` (which lists them among its kinds), so an export can count them for its notes.
 */
import type { Db } from '../store/db.js';
import { legFindings, rowFindings, type CheckPeriod, type RowFinding, type RowKind } from '../store/checks.js';
import { derivedAddresses, walletAddresses } from '../store/ledger.js';
import { isoSeconds } from '../core/clock.js';
import { addressKey, PROPOSAL_WINDOW_SECONDS, counterpartyWallet, type FreeLeg, type OwnWallet } from '../accounting/transfers.js';
import { legSidesByRowid, type LegSide } from '../store/transfers.js';
import { eachProposedBridge, proposedBridges } from './bridges.js';

/** Unix seconds, start inclusive and end exclusive; either may be open; `walletIds` only those wallets' rows. */
type Period = CheckPeriod;

export interface KindResult {
  count: number;
  examples: Record<string, unknown>[];
}

export const EXAMPLES = 5;

export const withTimestamp = ({ ts, ...rest }: RowFinding): Record<string, unknown> => ({ ...rest, timestamp: isoSeconds(ts) });

/** Rows of the period of a row kind: the count, and the first `limit` in time order. */
export function rowKind(db: Db, workspaceId: string, p: Period, known: number | undefined, kind: RowKind, limit = EXAMPLES): KindResult {
  const { count, rows } = rowFindings(db, workspaceId, p, kind, known, limit);
  return { count, examples: rows.map(withTimestamp) };
}

export function unpriced(db: Db, workspaceId: string, p: Period, known?: number): KindResult {
  return rowKind(db, workspaceId, p, known, 'unpriced');
}

/**
 * Own transfers not matched: rows whose other side (the sender of an inflow, the recipient of an
 * outflow) is another wallet of the workspace on the same chain and that are not legs of a
 * transfer (fees and approvals are no transfers), and both legs of every proposed bridge
 * (`txa transfers list --status candidate`) not yet confirmed.
 */
export function unmatchedTransfers(db: Db, workspaceId: string, p: Period, knownByAddress?: number): KindResult {
  return unmatched(db, workspaceId, p, knownByAddress, EXAMPLES);
}

/** How the count runs: `tick` called after each chunk of free rows (the notes worker's heartbeat); `chunk` and `batch` only for tests. */
export interface CountOptions {
  chunk?: number;
  batch?: number;
  tick?: () => void;
}

/** Bridge legs whose sides are read per statement while the count streams: a bounded batch, one statement per batch. */
const SIDES_BATCH = 4096;

/**
 * Free rows read per statement by the count: a fifth of freeLegs' default, the chunk being most of
 * what the count holds (on the 1M ledger its heap 116 → 66 MB, the same CPU: bench/RESULTS.md
 * "Session 14").
 */
const COUNT_CHUNK = 10_000;

/**
 * How many own transfers are not matched (unmatchedTransfers' count, no example read): a report's
 * note. The same count as unmatchedTransfers', streamed: each proposal's legs in the period are
 * tested in batches as the walk makes them, nothing sorted and no proposal kept (on the realistic
 * 1M ledger the list of every proposal and its legs was most of the notes worker's heap). A row is
 * a leg of one proposal at most (proposals propose each row once), so no leg is counted twice.
 */
export function unmatchedTransferCount(db: Db, workspaceId: string, p: Period, how: CountOptions = {}): number {
  const { chunk = COUNT_CHUNK, batch: batchSize = SIDES_BATCH, tick } = how;
  let count = rowKind(db, workspaceId, p, undefined, 'unmatched_transfer', 0).count;
  const countedByAddress = byAddressTest(db, workspaceId);
  let batch: number[] = [];
  const flush = () => {
    const sides = legSidesByRowid(db, batch);
    for (const side of sides.values()) if (!countedByAddress(side)) count++;
    batch = [];
  };
  const inPeriod = legInPeriod(p);
  eachProposedBridge(
    db,
    workspaceId,
    proposalRange(p),
    (pair) => {
      if (inPeriod(pair.out)) batch.push(pair.out.rowid);
      if (inPeriod(pair.in)) batch.push(pair.in.rowid);
      if (batch.length >= batchSize) flush();
    },
    chunk,
    tick,
  );
  if (batch.length > 0) flush();
  return count;
}

/**
 * Whether a bridge leg is already one of the rows counted by address (the by-address join, on the
 * leg's few columns): a bridge leg is cross-chain, so it is one only when its address names
 * another wallet on its own chain too.
 */
function byAddressTest(db: Db, workspaceId: string): (leg: LegSide) => boolean {
  const wallets = [...walletAddresses(db, workspaceId), ...derivedAddresses(db, workspaceId)] as OwnWallet[];
  const byOwnAddress = new Map(wallets.map((w) => [addressKey(w.chain, w.address), w]));
  return (leg) => leg.type !== 'fee' && leg.type !== 'approval' && counterpartyWallet(leg, byOwnAddress) !== undefined;
}

/** Proposals are made from the rows of the period and the widest proposal window before it, so an inflow early in the period can still pair with an outflow sent just before. */
const proposalRange = (p: Period) => ({ startTs: p.startTs === undefined ? undefined : p.startTs - PROPOSAL_WINDOW_SECONDS, endTs: p.endTs });

/** Whether a proposal's leg is a row of the period and its wallets. */
function legInPeriod(p: Period): (leg: FreeLeg) => boolean {
  const inScope = (leg: FreeLeg) => p.walletIds === undefined || p.walletIds.includes(leg.wallet_id);
  return (leg) => inScope(leg) && (p.startTs === undefined || leg.ts >= p.startTs) && (p.endTs === undefined || leg.ts < p.endTs);
}

/** unmatchedTransfers with its first `limit` examples (`txa check`; a report's note streams its count: unmatchedTransferCount). */
function unmatched(db: Db, workspaceId: string, p: Period, knownByAddress: number | undefined, limit: number): KindResult {
  const byAddress = rowKind(db, workspaceId, p, knownByAddress, 'unmatched_transfer', limit);
  const bridges = bridgeLegs(db, workspaceId, p);
  if (bridges.length === 0) return byAddress;
  // The legs not among the rows above (byAddressTest), their few columns read by rowid in one
  // statement: a query per leg costs seconds.
  const counted = byAddressTest(db, workspaceId);
  const sides = legSidesByRowid(
    db,
    bridges.map((b) => b.rowid),
  );
  const extra = bridges.filter((b) => {
    const side = sides.get(b.rowid);
    return side !== undefined && !counted(side);
  });
  const legs = extra.slice(0, limit).map(({ id, other }) => ({ id, other }));
  const examples = [...byAddress.examples, ...legFindings(db, legs).map(withTimestamp)]
    .sort((a, b) => byTime(String(a.timestamp), a.transaction_id, String(b.timestamp), b.transaction_id))
    .slice(0, limit);
  return { count: byAddress.count + extra.length, examples };
}

/** A leg of a proposed bridge: its row (id and rowid), time, and its counterpart's id. */
interface BridgeLeg {
  id: string;
  rowid: number;
  ts: number;
  other: string;
}

/** The legs of the bridges proposed in the period (proposalRange), each with its counterpart's id, oldest first (then by id). */
function bridgeLegs(db: Db, workspaceId: string, p: Period): BridgeLeg[] {
  const found = new Map<string, BridgeLeg>();
  const inPeriod = legInPeriod(p);
  for (const pair of proposedBridges(db, workspaceId, proposalRange(p))) {
    if (inPeriod(pair.out)) found.set(pair.out.id, { id: pair.out.id, rowid: pair.out.rowid, ts: pair.out.ts, other: pair.in.id });
    if (inPeriod(pair.in)) found.set(pair.in.id, { id: pair.in.id, rowid: pair.in.rowid, ts: pair.in.ts, other: pair.out.id });
  }
  return [...found.values()].sort((x, y) => byTime(x.ts, x.id, y.ts, y.id));
}

/** Oldest first, then by id (timestamps of one kind: ISO text or Unix seconds). */
function byTime(ta: string | number, a: unknown, tb: string | number, b: unknown): number {
  return ta < tb ? -1 : ta > tb ? 1 : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
