/**
 * The six kinds of `txa check` (docs/check.md), one query each over the period
 * (store/checks.ts), returning how many there are and the first few, oldest first.
 */
import type { Db } from '../store/db.js';
import {
  assertionBalances,
  dayRowsReader,
  failedExportRows,
  legFindings,
  rowFindings,
  rowKindCounts,
  rowsByRowid,
  type CheckPeriod,
  type RowFinding,
  type RowKind,
} from '../store/checks.js';
import { walletAddresses } from '../store/ledger.js';
import { isoSeconds } from '../core/clock.js';
import { ExactSum, addDecimals } from '../core/money.js';
import { DAY_SECONDS, epochDay } from '../core/dates.js';
import { balanceDays } from '../store/balance-days.js';
import { addressKey, counterpartyWallet, PROPOSAL_WINDOW_SECONDS, type Leg, type OwnWallet } from '../accounting/transfers.js';
import { proposedBridges } from '../engine/bridges.js';
import type { CheckKind } from '../core/check-kinds.js';

export { CHECK_KINDS, type CheckKind } from '../core/check-kinds.js';

/** Unix seconds, start inclusive and end exclusive; either may be open. */
export type Period = CheckPeriod;

export interface KindResult {
  count: number;
  examples: Record<string, unknown>[];
}

export const EXAMPLES = 5;

const withTimestamp = ({ ts, ...rest }: RowFinding): Record<string, unknown> => ({ ...rest, timestamp: isoSeconds(ts) });

/** Rows of the period of a row kind: the count, and the first EXAMPLES in time order. */
function rowKind(db: Db, workspaceId: string, p: Period, known: number | undefined, kind: RowKind): KindResult {
  const { count, rows } = rowFindings(db, workspaceId, p, kind, known, EXAMPLES);
  return { count, examples: rows.map(withTimestamp) };
}

const ROW_KINDS: readonly CheckKind[] = ['untagged', 'unpriced', 'unmatched_transfer'] satisfies RowKind[];
const isRowKind = (k: CheckKind): k is RowKind => ROW_KINDS.includes(k);

/**
 * The whole-workspace counts of the row kinds among `kinds`, when two or more are run, in one scan
 * of the table (store/checks.ts rowKindCounts), for `known` of the kinds' queries.
 */
export function wholeLedgerCounts(db: Db, workspaceId: string, kinds: readonly CheckKind[]): Partial<Record<CheckKind, number>> {
  const wanted = kinds.filter(isRowKind);
  if (wanted.length < 2) return {};
  const counts = rowKindCounts(db, workspaceId, wanted);
  return Object.fromEntries(wanted.map((k, i) => [k, counts[i]]));
}

export function untagged(db: Db, workspaceId: string, p: Period, known?: number): KindResult {
  return rowKind(db, workspaceId, p, known, 'untagged');
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
  const byAddress = rowKind(db, workspaceId, p, knownByAddress, 'unmatched_transfer');
  const bridges = bridgeLegs(db, workspaceId, p);
  if (bridges.size === 0) return byAddress;
  // A bridge leg is cross-chain, so it is one of the rows above only when its address names another
  // wallet on its own chain too: the join above, on the leg in hand (a query per leg costs seconds).
  const wallets = walletAddresses(db, workspaceId) as OwnWallet[];
  const byOwnAddress = new Map(wallets.map((w) => [addressKey(w.chain, w.address), w]));
  const counted = (leg: Leg) => leg.type !== 'fee' && leg.type !== 'approval' && counterpartyWallet(leg, byOwnAddress) !== undefined;
  const extra = [...bridges].filter(([, { leg }]) => !counted(leg));
  const legs = extra.slice(0, EXAMPLES).map(([id, leg]) => ({ id, other: leg.other }));
  const examples = [...byAddress.examples, ...legFindings(db, legs).map(withTimestamp)]
    .sort((a, b) => byTime(String(a.timestamp), a.transaction_id, String(b.timestamp), b.transaction_id))
    .slice(0, EXAMPLES);
  return { count: byAddress.count + extra.length, examples };
}

/**
 * The legs of the bridges proposed in the period, each with its counterpart's id, oldest first.
 * Proposals are made from the rows of the period and the widest proposal window before it, so an inflow
 * early in the period can still pair with an outflow sent just before.
 */
function bridgeLegs(db: Db, workspaceId: string, p: Period): Map<string, { other: string; ts: number; leg: Leg }> {
  const from = p.startTs === undefined ? undefined : p.startTs - PROPOSAL_WINDOW_SECONDS;
  const legs = new Map<string, { other: string; ts: number; leg: Leg }>();
  const inPeriod = (ts: number) => (p.startTs === undefined || ts >= p.startTs) && (p.endTs === undefined || ts < p.endTs);
  for (const pair of proposedBridges(db, workspaceId, { startTs: from, endTs: p.endTs })) {
    if (inPeriod(pair.out.ts)) legs.set(pair.out.id, { other: pair.in.id, ts: pair.out.ts, leg: pair.out });
    if (inPeriod(pair.in.ts)) legs.set(pair.in.id, { other: pair.out.id, ts: pair.in.ts, leg: pair.in });
  }
  return new Map([...legs].sort(([a, x], [b, y]) => byTime(x.ts, a, y.ts, b)));
}

/** Oldest first, then by id (timestamps of one kind: ISO text or Unix seconds). */
function byTime(ta: string | number, a: unknown, tb: string | number, b: unknown): number {
  return ta < tb ? -1 : ta > tb ? 1 : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/**
 * Wallets and tokens whose running balance (inflows − outflows in time order, from the first row)
 * goes below zero in the period: history is missing. Each is named once, at the first row where
 * it is negative, with the balance there. The balance walks days (store/balance-days.ts), exactly
 * (BigInt): a day's lowest balance is at least its opening balance minus its outflows, so only a
 * day where that is below zero, in the period, has its rows read to find the row (bench/RESULTS.md).
 */
export function negativeBalances(db: Db, workspaceId: string, p: Period): KindResult {
  const from = p.startTs ?? -Infinity;
  const end = p.endTs ?? Number.MAX_SAFE_INTEGER;
  const rowsOf = dayRowsReader(db);
  let token: string | undefined;
  let balance = new ExactSum();
  const found = new Map<string, { walletId: string; symbol: string; address: string | null; rowid: number; balance: string }>();
  for (const d of balanceDays(db, workspaceId, epochDay(end - 1))) {
    const key = `${d.wallet_id}\u0000${d.token_symbol}\u0000${d.token_address}`;
    if (key !== token) {
      token = key;
      balance = new ExactSum();
    }
    if (found.has(key)) continue;
    const dayStart = d.day * DAY_SECONDS;
    // Most days move nothing or only one way: amounts of '0' are not summed.
    const afterOutflows = d.outflow === '0' ? balance : balance.minus(d.outflow);
    if (dayStart + DAY_SECONDS <= from || !afterOutflows.negative) {
      balance = afterOutflows;
      if (d.inflow !== '0') balance.add(d.inflow);
      continue;
    }
    const rows = rowsOf(workspaceId, d.wallet_id, dayStart, Math.min(dayStart + DAY_SECONDS, end), d.token_symbol, d.token_address);
    for (const [amount, decimals, inflow, ts, rowid] of rows) {
      if (inflow === 1) balance.add(amount, decimals);
      else balance.subtract(amount, decimals);
      if (balance.negative && ts >= from) {
        found.set(key, {
          walletId: d.wallet_id,
          symbol: d.token_symbol,
          address: d.token_address === '' ? null : d.token_address,
          rowid,
          balance: balance.toString(),
        });
        break;
      }
    }
  }
  const findings = [...found.values()];
  const places = rowsByRowid(
    db,
    findings.map((f) => f.rowid),
  );
  const examples = findings
    .map((f, i) => ({ ...f, ...places[i]! }))
    .sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1))
    .slice(0, EXAMPLES)
    .map((f) => ({
      wallet_id: f.walletId,
      wallet_label: f.label,
      token: { symbol: f.symbol, address: f.address },
      transaction_id: f.id,
      timestamp: isoSeconds(f.ts),
      balance: f.balance,
    }));
  return { count: found.size, examples };
}

/** Assertions of the period whose balance is not the ledger's at the end of their day: the earliest first. */
export function failedAssertions(db: Db, workspaceId: string, p: Period): KindResult {
  const rows = assertionBalances(db, workspaceId, p);
  const failed = rows.filter((r) => r[6] !== r[7]);
  return {
    count: failed.length,
    examples: failed.slice(0, EXAMPLES).map(([id, walletId, label, symbol, address, day, expected, actual]) => ({
      assertion_id: id,
      wallet_id: walletId,
      wallet_label: label,
      token: { symbol, address },
      at: day,
      expected,
      actual,
      difference: difference(actual, expected),
    })),
  };
}

/** actual − expected, exactly. */
function difference(actual: string, expected: string): string {
  const negated = expected.startsWith('-') ? expected.slice(1) : `-${expected}`;
  return addDecimals([actual, negated]);
}

/** Exports created in the period that failed (a cancelled one is the user's choice, not a finding). */
export function failedExports(db: Db, workspaceId: string, p: Period): KindResult {
  const { count, rows } = failedExportRows(db, workspaceId, p, EXAMPLES);
  return {
    count,
    examples: rows.map((r) => ({
      export_id: r.id,
      created_at: r.created_at,
      format: r.format,
      report_type: r.report_type,
      error: { code: r.error_code, message: r.error_message },
    })),
  };
}

/** Each kind's query; the row kinds take their whole-workspace count when it is known (wholeLedgerCounts). */
export const KIND_QUERIES: Record<CheckKind, (db: Db, workspaceId: string, p: Period, known?: number) => KindResult> = {
  untagged,
  unpriced,
  unmatched_transfer: unmatchedTransfers,
  negative_balance: negativeBalances,
  assertion_failed: failedAssertions,
  failed_export: failedExports,
};
