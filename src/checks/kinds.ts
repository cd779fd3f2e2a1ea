/**
 * The kinds of `txa check` (docs/check.md), one query each over the period
 * (store/checks.ts), returning how many there are and the first few, oldest first.
 */
import type { Db } from '../store/db.js';
import {
  assertionBalances,
  dayRowsReader,
  failedExportRows,
  periodHasRows,
  walletsSyncedBefore,
  rowKindCounts,
  rowsByRowid,
  type CheckPeriod,
  type RowKind,
} from '../store/checks.js';
import { isoSeconds, nowSeconds } from '../core/clock.js';
import { EXCHANGE_CHAIN } from '../core/chains.js';
import { ExactSum, addDecimals } from '../core/money.js';
import { DAY_SECONDS, epochDay, parseDay } from '../core/dates.js';
import { balanceDays } from '../store/balance-days.js';
import { EXAMPLES, rowKind, unmatchedTransfers, unpriced, type KindResult } from '../engine/row-findings.js';
import type { CheckKind } from '../core/check-kinds.js';
import { WALLET_SCOPE_FROM } from '../core/lots.js';
import { firstUnallocatedDisposal } from '../store/lots.js';
import { listOpeningLots } from '../store/opening-lots.js';
import { closedPeriodsChanged } from './closed-periods.js';
import type { Engine } from '../engine/engine.js';
import { rollforwardDifferences } from './rollforward.js';

export { CHECK_KINDS, type CheckKind } from '../core/check-kinds.js';
export { EXAMPLES, unmatchedTransfers, unpriced, type KindResult } from '../engine/row-findings.js';

/** Unix seconds, start inclusive and end exclusive; either may be open. */
export type Period = CheckPeriod;

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
  // Opening lots (docs/lots.md "Opening lots") are what the wallet held before its rows: each adds
  // its quantity at the start of its day, so rows that spend them are no missing history.
  const openings = new Map<string, { day: number; quantity: string; decimals: number }[]>();
  for (const o of listOpeningLots(db, workspaceId)) {
    const key = `${o.wallet_id}\u0000${o.token_symbol}\u0000${o.token_address ?? ''}`;
    let list = openings.get(key);
    if (!list) openings.set(key, (list = []));
    list.push({ day: epochDay(parseDay(o.acquired_on)!), quantity: o.quantity, decimals: o.token_decimals });
  }
  let pending: { day: number; quantity: string; decimals: number }[] = [];
  for (const d of balanceDays(db, workspaceId, epochDay(end - 1))) {
    const key = `${d.wallet_id}\u0000${d.token_symbol}\u0000${d.token_address}`;
    if (key !== token) {
      token = key;
      balance = new ExactSum();
      pending = [...(openings.get(key) ?? [])];
    }
    if (found.has(key)) continue;
    while (pending.length > 0 && pending[0]!.day <= d.day) {
      const o = pending.shift()!;
      balance.add(o.quantity, o.decimals);
    }
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
/**
 * Lots pooled before 2025 and a disposal on or after 2025-01-01 in the period, while no
 * allocation is recorded (docs/lots.md): reports then use the fifo order's. One finding, the
 * first such disposal its example.
 */
export function unrecordedAllocation(db: Db, workspaceId: string, p: Period): KindResult {
  const boundary = parseDay(WALLET_SCOPE_FROM)!;
  const first = firstUnallocatedDisposal(db, workspaceId, boundary, p.startTs, p.endTs);
  if (!first) return { count: 0, examples: [] };
  const { ts, ...rest } = first;
  return { count: 1, examples: [{ at: WALLET_SCOPE_FROM, ...rest, timestamp: isoSeconds(ts) }] };
}

/**
 * A period without a single row (docs/check.md): a sync that fetched nothing, an import never run.
 * A report of it would be all zeros, which a CI job would ship as if it were the month's figures.
 */
export function emptyPeriod(db: Db, workspaceId: string, p: Period): KindResult {
  if (periodHasRows(db, workspaceId, p)) return { count: 0, examples: [] };
  const day = (ts: number | undefined) => (ts === undefined ? null : isoSeconds(ts).slice(0, 10));
  return { count: 1, examples: [{ start_date: day(p.startTs), end_date: day(p.endTs === undefined ? undefined : p.endTs - DAY_SECONDS) }] };
}

/** How long a sync stays fresh for a period that is not over yet (docs/check.md, `stale_sync`). */
const FRESH_SECONDS = DAY_SECONDS;

/**
 * Wallets synced (or imported into) at least once whose last sync is before the period's end, so
 * rows of the period's end may be missing; for a period not over yet, a last sync more than a day
 * old. Only with a period: a whole-ledger check has no end to compare with.
 */
export function staleSyncs(db: Db, workspaceId: string, p: Period): KindResult {
  if (p.endTs === undefined) return { count: 0, examples: [] };
  const bound = Math.min(p.endTs, nowSeconds() - FRESH_SECONDS);
  const rows = walletsSyncedBefore(db, workspaceId, isoSeconds(bound)).filter((w) => p.walletIds === undefined || p.walletIds.includes(w.wallet_id));
  const periodEnd = isoSeconds(p.endTs);
  return {
    count: rows.length,
    examples: rows.slice(0, EXAMPLES).map((w) => ({ ...w, chain: w.chain === EXCHANGE_CHAIN ? null : w.chain, period_end: periodEnd })),
  };
}

export const KIND_QUERIES: Record<CheckKind, (db: Db, workspaceId: string, p: Period, known: number | undefined, engine: Engine) => KindResult> = {
  untagged,
  unpriced,
  unmatched_transfer: unmatchedTransfers,
  negative_balance: negativeBalances,
  assertion_failed: failedAssertions,
  failed_export: failedExports,
  unrecorded_allocation: unrecordedAllocation,
  closed_period_changed: (db, workspaceId, p) => {
    const { count, examples } = closedPeriodsChanged(db, workspaceId, p);
    return { count, examples: examples.slice(0, EXAMPLES) };
  },
  rollforward_difference: (_db, workspaceId, p, _known, engine) => rollforwardDifferences(engine, workspaceId, p, EXAMPLES),
  empty_period: emptyPeriod,
  stale_sync: staleSyncs,
};
