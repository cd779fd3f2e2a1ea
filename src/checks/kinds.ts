/**
 * The six kinds of `txa check` (CONTRACT §10, docs/check.md), one SQL query each over the period,
 * returning how many there are and the first few, oldest first. Rows of amount 0 (approvals,
 * calls) move nothing and are never findings.
 */
import type { Db } from '../store/db.js';
import { isoSeconds } from '../core/clock.js';
import { ExactSum, addDecimals } from '../core/money.js';
import { DAY_SECONDS, epochDay } from '../core/dates.js';
import { balanceDays } from '../store/balance-days.js';
import { registerBalanceFunction } from './exact-balance.js';
import { addressKey, BRIDGE_WINDOW_SECONDS, counterpartyWallet, type Leg, type OwnWallet } from '../accounting/transfers.js';
import { proposedBridges } from '../engine/bridges.js';
import type { CheckKind } from '../core/check-kinds.js';

export { CHECK_KINDS, type CheckKind } from '../core/check-kinds.js';

/** Unix seconds, start inclusive and end exclusive; either may be open. */
export interface Period {
  startTs?: number;
  endTs?: number;
}

export interface KindResult {
  count: number;
  examples: Record<string, unknown>[];
}

export const EXAMPLES = 5;

interface Scope {
  sql: string;
  params: unknown[];
}

/** The workspace's rows of the period that move something (and are not spam). */
function rowScope(_db: Db, workspaceId: string, p: Period): Scope {
  const clauses = ['t.workspace_id = ?', "t.amount_key <> '00'"];
  const params: unknown[] = [workspaceId];
  if (p.startTs !== undefined) {
    clauses.push('t.ts >= ?');
    params.push(p.startTs);
  }
  if (p.endTs !== undefined) {
    clauses.push('t.ts < ?');
    params.push(p.endTs);
  }
  clauses.push('t.spam = 0');
  return { sql: clauses.join(' AND '), params };
}

const ROW_FIELDS = `t.id AS transaction_id, t.ts, t.wallet_id, w.label AS wallet_label, t.chain, t.token_symbol AS token, t.amount, t.direction, t.tx_hash`;

type RowExample = Record<string, unknown> & { ts: number };
const withTimestamp = ({ ts, ...rest }: RowExample): Record<string, unknown> => ({ ...rest, timestamp: isoSeconds(ts) });

/** Findings from which a walk of the time index from the start meets the first EXAMPLES soon (after about 5 × rows / count rows). */
const MANY = 1000;

/**
 * Rows of the period matching `condition`: the count, and the first EXAMPLES in time order. A
 * period's rows are found through the (workspace, time) index; all of a workspace's rows are
 * counted by reading the table in order, which costs a fifth of an index walk that visits each row
 * (bench/RESULTS.md), even where the ledger holds other workspaces too. Their first few are read
 * the same way, but when there are MANY, walking the index from the start finds them sooner.
 * `known` is the count when it was taken already (wholeLedgerCounts).
 */
function rowKind(db: Db, workspaceId: string, p: Period, known: number | undefined, condition: string, extraFrom = '', extraFields = ''): KindResult {
  const scope = rowScope(db, workspaceId, p);
  const where = `${scope.sql} AND ${condition}`;
  const whole = p.startTs === undefined && p.endTs === undefined;
  const count =
    known ??
    (db
      .prepare(`SELECT count(*) FROM ${whole ? 'transactions t NOT INDEXED' : 'transactions t'} ${extraFrom} WHERE ${where}`)
      .pluck()
      .get(...scope.params) as number);
  if (count === 0) return { count, examples: [] };
  const rows = !whole ? 'transactions t' : count >= MANY ? 'transactions t INDEXED BY tx_by_time' : 'transactions t NOT INDEXED';
  const examples = db
    .prepare(
      `SELECT ${ROW_FIELDS}${extraFields} FROM ${rows} JOIN wallets w ON w.id = t.wallet_id ${extraFrom} WHERE ${where} ORDER BY t.ts, t.id LIMIT ${EXAMPLES}`,
    )
    .all(...scope.params) as RowExample[];
  return { count, examples: examples.map(withTimestamp) };
}

// The row kinds' conditions on a row in scope, shared by their queries and wholeLedgerCounts.
const UNTAGGED = 't.tag_count = 0 AND t.transfer_id IS NULL';
const UNPRICED = 't.fiat_cents IS NULL';
/** A row that may be an own transfer by address, whose other side is `o`, another wallet of the workspace on its chain. */
const BY_ADDRESS = "t.type NOT IN ('fee', 'approval') AND t.transfer_id IS NULL";
const OWN_COUNTERPARTY = `o.workspace_id = t.workspace_id AND o.chain = t.chain AND o.id <> t.wallet_id
    AND o.address = lower(CASE t.direction WHEN 'inflow' THEN t.from_address ELSE t.to_address END)`;

/**
 * The whole-workspace counts of the row kinds among `kinds`, when two or more are run, in one scan
 * of the table: each kind's own count is a scan too, and one scan counting three costs two thirds
 * of three (bench/RESULTS.md "Session 7, txa check"). For `known` of the kinds' queries.
 */
export function wholeLedgerCounts(db: Db, workspaceId: string, kinds: readonly CheckKind[]): Partial<Record<CheckKind, number>> {
  const sums: Partial<Record<CheckKind, string>> = {
    untagged: `sum(${UNTAGGED})`,
    unpriced: `sum(${UNPRICED})`,
    // Wallets are unique by workspace, chain and address: the join counts a row once at most.
    unmatched_transfer: `sum(CASE WHEN ${BY_ADDRESS} THEN EXISTS (SELECT 1 FROM wallets o WHERE ${OWN_COUNTERPARTY}) ELSE 0 END)`,
  };
  const wanted = kinds.filter((k) => sums[k] !== undefined);
  if (wanted.length < 2) return {};
  const scope = rowScope(db, workspaceId, {});
  const row = db
    .prepare(`SELECT ${wanted.map((k) => sums[k]).join(', ')} FROM transactions t NOT INDEXED WHERE ${scope.sql}`)
    .raw(true)
    .get(...scope.params) as (number | null)[];
  return Object.fromEntries(wanted.map((k, i) => [k, row[i] ?? 0]));
}

export function untagged(db: Db, workspaceId: string, p: Period, known?: number): KindResult {
  // A leg of a matched own transfer is neither income nor expense: it needs no tag.
  return rowKind(db, workspaceId, p, known, UNTAGGED);
}

export function unpriced(db: Db, workspaceId: string, p: Period, known?: number): KindResult {
  return rowKind(db, workspaceId, p, known, UNPRICED);
}

/**
 * Own transfers not matched: rows whose other side (the sender of an inflow, the recipient of an
 * outflow) is another wallet of the workspace on the same chain and that are not legs of a
 * transfer (fees and approvals are no transfers), and both legs of every proposed bridge
 * (`txa transfers list --status candidate`) not yet confirmed.
 */
export function unmatchedTransfers(db: Db, workspaceId: string, p: Period, knownByAddress?: number): KindResult {
  const fields = ', o.id AS counterparty_wallet_id, o.label AS counterparty_wallet_label';
  const byAddress = rowKind(db, workspaceId, p, knownByAddress, BY_ADDRESS, `JOIN wallets o ON ${OWN_COUNTERPARTY}`, fields);
  const bridges = bridgeLegs(db, workspaceId, p);
  if (bridges.size === 0) return byAddress;
  // A bridge leg is cross-chain, so it is one of the rows above only when its address names another
  // wallet on its own chain too: the join above, on the leg in hand (a query per leg costs seconds).
  const wallets = db.prepare('SELECT id, chain, address FROM wallets WHERE workspace_id = ?').all(workspaceId) as OwnWallet[];
  const byOwnAddress = new Map(wallets.map((w) => [addressKey(w.chain, w.address), w]));
  const counted = (leg: Leg) => leg.type !== 'fee' && leg.type !== 'approval' && counterpartyWallet(leg, byOwnAddress) !== undefined;
  const extra = [...bridges].filter(([, { leg }]) => !counted(leg));
  const row = db.prepare(`SELECT ${ROW_FIELDS}, o.id AS counterparty_wallet_id, o.label AS counterparty_wallet_label
    FROM transactions t JOIN wallets w ON w.id = t.wallet_id JOIN transactions c ON c.id = ? JOIN wallets o ON o.id = c.wallet_id WHERE t.id = ?`);
  const examples = [...byAddress.examples, ...extra.slice(0, EXAMPLES).map(([id, leg]) => withTimestamp(row.get(leg.other, id) as RowExample))]
    .sort((a, b) => byTime(String(a.timestamp), a.transaction_id, String(b.timestamp), b.transaction_id))
    .slice(0, EXAMPLES);
  return { count: byAddress.count + extra.length, examples };
}

/**
 * The legs of the bridges proposed in the period, each with its counterpart's id, oldest first.
 * Proposals are made from the rows of the period and the bridge window before it, so an inflow
 * early in the period can still pair with an outflow sent just before.
 */
function bridgeLegs(db: Db, workspaceId: string, p: Period): Map<string, { other: string; ts: number; leg: Leg }> {
  const from = p.startTs === undefined ? undefined : p.startTs - BRIDGE_WINDOW_SECONDS;
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
  // The wallet's rows of the day: without INDEXED BY, SQLite walks every row of the day (tx_by_time).
  const rowsOf = db
    .prepare(
      `SELECT t.amount, t.token_decimals, t.direction = 'inflow', t.ts, t.rowid FROM transactions t INDEXED BY tx_by_wallet
     WHERE t.workspace_id = ? AND t.wallet_id = ? AND t.ts >= ? AND t.ts < ? AND t.token_symbol = ? AND ifnull(t.token_address, '') = ? ORDER BY t.ts, t.id`,
    )
    .raw(true);
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
    const rows = rowsOf.all(workspaceId, d.wallet_id, dayStart, Math.min(dayStart + DAY_SECONDS, end), d.token_symbol, d.token_address) as [
      string,
      number,
      number,
      number,
      number,
    ][];
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
  const row = db.prepare('SELECT t.id, t.ts, w.label FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.rowid = ?');
  const examples = [...found.values()]
    .map((f) => ({ ...f, ...(row.get(f.rowid) as { id: string; ts: number; label: string }) }))
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
  registerBalanceFunction(db);
  const rows = db
    .prepare(
      `SELECT a.id, a.wallet_id, w.label, a.token_symbol, a.token_address, a.day, a.balance,
         (SELECT txa_balance(t.amount, t.token_decimals, t.direction) FROM transactions t
          WHERE t.workspace_id = a.workspace_id AND t.wallet_id = a.wallet_id AND t.ts < a.end_ts
            AND t.token_symbol = a.token_symbol AND t.token_address IS a.token_address) AS actual
       FROM balance_assertions a JOIN wallets w ON w.id = a.wallet_id
       WHERE a.workspace_id = ? AND a.end_ts > ? AND a.end_ts <= ? ORDER BY a.day, w.label, a.token_symbol, a.id`,
    )
    .raw(true)
    .all(workspaceId, p.startTs ?? -Infinity, p.endTs ?? Infinity) as [string, string, string, string, string | null, string, string, string][];
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
  const where = "workspace_id = ? AND created_ts >= ? AND created_ts < ? AND status = 'failed' AND error_code IS NOT 'EXPORT_CANCELLED'";
  const params = [workspaceId, p.startTs ?? -Infinity, p.endTs ?? Infinity];
  const count = db
    .prepare(`SELECT count(*) FROM exports WHERE ${where}`)
    .pluck()
    .get(...params) as number;
  const rows = db
    .prepare(`SELECT id, created_at, format, report_type, error_code, error_message FROM exports WHERE ${where} ORDER BY created_ts, id LIMIT ${EXAMPLES}`)
    .all(...params) as {
    id: string;
    created_at: string;
    format: string;
    report_type: string | null;
    error_code: string | null;
    error_message: string | null;
  }[];
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
