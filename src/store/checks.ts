/**
 * The queries of `txa check` (checks/kinds.ts, docs/check.md): the rows of the row kinds in a
 * period, counted and the first few in time order; the rows of a day a running balance walks; the
 * assertions with the ledger's balance at their day's end; the failed exports. Rows of amount 0
 * (approvals, calls) move nothing and are never findings.
 */
import { EXCHANGE_CHAIN } from '../core/chains.js';
import type { Db } from './db.js';
import { ExactSum } from '../core/money.js';

/** Unix seconds, start inclusive and end exclusive; either may be open. */
export interface CheckPeriod {
  startTs?: number;
  endTs?: number;
  /** Only these wallets' rows (a report's scope, docs/periods.md "Report notes"); all when absent. */
  walletIds?: readonly string[];
}

/** The kinds found among the transactions of the period, one condition on a row each. */
export type RowKind = 'untagged' | 'unpriced' | 'unmatched_transfer';

/** A row found: its transaction, wallet, token and amount, with `ts` in Unix seconds (and, for a transfer, the other wallet). */
export type RowFinding = Record<string, unknown> & { ts: number };

interface Scope {
  sql: string;
  params: unknown[];
}

/** The workspace's rows of the period that move something (and are not spam). */
function rowScope(workspaceId: string, p: CheckPeriod): Scope {
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
  if (p.walletIds !== undefined) {
    clauses.push(`t.wallet_id IN (${p.walletIds.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...p.walletIds);
  }
  clauses.push('t.spam = 0');
  return { sql: clauses.join(' AND '), params };
}

/** An exchange wallet's rows show no chain (docs/storage.md "Exchange wallets"). */
const ROW_FIELDS = `t.id AS transaction_id, t.ts, t.wallet_id, w.label AS wallet_label, nullif(t.chain, '${EXCHANGE_CHAIN}') AS chain, t.token_symbol AS token, t.amount, t.direction, t.tx_hash`;

// The row kinds' conditions on a row in scope, shared by their queries and rowKindCounts.
const UNTAGGED = 't.tag_count = 0 AND t.transfer_id IS NULL';
const UNPRICED = 't.fiat_cents IS NULL';
/** A row that may be an own transfer by address, whose other side is `o`, another wallet of the workspace on its chain. */
const BY_ADDRESS = "t.type NOT IN ('fee', 'approval') AND t.transfer_id IS NULL";
const COUNTERPARTY = "CASE t.direction WHEN 'inflow' THEN t.from_address ELSE t.to_address END";
const OWN_COUNTERPARTY = `o.workspace_id = t.workspace_id AND o.chain = t.chain AND o.id <> t.wallet_id AND o.address = lower(${COUNTERPARTY})`;
/**
 * A Bitcoin row's other side: a wallet's address as written (base58 is case-sensitive), or an
 * address an xpub wallet's sync derived and walked (its cursor `esplora:<address>`,
 * docs/sync.md "Bitcoin"). Asked only of Bitcoin rows, so other chains keep their one index lookup.
 */
const OWN_BITCOIN = `o.workspace_id = t.workspace_id AND o.chain = 'bitcoin' AND o.id <> t.wallet_id
    AND (o.address = ${COUNTERPARTY} OR EXISTS (SELECT 1 FROM sync_cursors c WHERE c.wallet_id = o.id AND c.list = 'esplora:' || ${COUNTERPARTY}))`;
/** The id of the own wallet a row's other side is, or null. */
const OWN_WALLET_ID = `coalesce((SELECT o.id FROM wallets o WHERE ${OWN_COUNTERPARTY}),
    CASE WHEN t.chain = 'bitcoin' THEN (SELECT o.id FROM wallets o WHERE ${OWN_BITCOIN} LIMIT 1) END)`;

/** Each row kind's condition, with the join and the fields it adds. */
const ROW_KINDS: Record<RowKind, { condition: string; extraFrom?: string; extraFields?: string }> = {
  // A leg of a matched own transfer is neither income nor expense: it needs no tag.
  untagged: { condition: UNTAGGED },
  unpriced: { condition: UNPRICED },
  unmatched_transfer: {
    condition: BY_ADDRESS,
    extraFrom: `JOIN wallets o ON o.id = ${OWN_WALLET_ID}`,
    extraFields: ', o.id AS counterparty_wallet_id, o.label AS counterparty_wallet_label',
  },
};

/** Findings from which a walk of the time index from the start meets the first few soon (after about 5 × rows / count rows). */
const MANY = 1000;

/**
 * Rows of the period of kind `kind`: the count, and the first `limit` in time order. A period's
 * rows are found through the (workspace, time) index; all of a workspace's rows are counted by
 * reading the table in order, which costs a fifth of an index walk that visits each row
 * (bench/RESULTS.md), even where the ledger holds other workspaces too. Their first few are read
 * the same way, but when there are MANY, walking the index from the start finds them sooner.
 * `known` is the count when it was taken already (rowKindCounts); a `limit` of 0 reads no row.
 */
export function rowFindings(
  db: Db,
  workspaceId: string,
  p: CheckPeriod,
  kind: RowKind,
  known: number | undefined,
  limit: number,
): { count: number; rows: RowFinding[] } {
  const { condition, extraFrom = '', extraFields = '' } = ROW_KINDS[kind];
  const scope = rowScope(workspaceId, p);
  const where = `${scope.sql} AND ${condition}`;
  const whole = p.startTs === undefined && p.endTs === undefined && p.walletIds === undefined;
  const count =
    known ??
    (db
      .prepare(`SELECT count(*) FROM ${whole ? 'transactions t NOT INDEXED' : 'transactions t'} ${extraFrom} WHERE ${where}`)
      .pluck()
      .get(...scope.params) as number);
  if (count === 0 || limit === 0) return { count, rows: [] };
  const from = !whole ? 'transactions t' : count >= MANY ? 'transactions t INDEXED BY tx_by_time' : 'transactions t NOT INDEXED';
  const rows = db
    .prepare(
      `SELECT ${ROW_FIELDS}${extraFields} FROM ${from} JOIN wallets w ON w.id = t.wallet_id ${extraFrom} WHERE ${where} ORDER BY t.ts, t.id LIMIT ${limit}`,
    )
    .all(...scope.params) as RowFinding[];
  return { count, rows };
}

/**
 * The whole-workspace counts of `kinds`, in their order, in one scan of the table: each kind's own
 * count is a scan too, and one scan counting three costs two thirds of three (bench/RESULTS.md
 * "Session 7, txa check").
 */
export function rowKindCounts(db: Db, workspaceId: string, kinds: readonly RowKind[]): number[] {
  const sums: Record<RowKind, string> = {
    untagged: `sum(${UNTAGGED})`,
    unpriced: `sum(${UNPRICED})`,
    // One wallet per row at most (the first that is its other side): the join counts a row once.
    unmatched_transfer: `sum(CASE WHEN ${BY_ADDRESS} THEN ${OWN_WALLET_ID} IS NOT NULL ELSE 0 END)`,
  };
  const scope = rowScope(workspaceId, {});
  const row = db
    .prepare(`SELECT ${kinds.map((k) => sums[k]).join(', ')} FROM transactions t NOT INDEXED WHERE ${scope.sql}`)
    .raw(true)
    .get(...scope.params) as (number | null)[];
  return kinds.map((_, i) => row[i] ?? 0);
}

/** Transfer legs as findings of unmatched_transfer, the other wallet being the one of the leg's counterpart (`other`). */
export function legFindings(db: Db, legs: readonly { id: string; other: string }[]): RowFinding[] {
  const row = db.prepare(`SELECT ${ROW_FIELDS}, o.id AS counterparty_wallet_id, o.label AS counterparty_wallet_label
    FROM transactions t JOIN wallets w ON w.id = t.wallet_id JOIN transactions c ON c.id = ? JOIN wallets o ON o.id = c.wallet_id WHERE t.id = ?`);
  return legs.map((leg) => row.get(leg.other, leg.id) as RowFinding);
}

/** A row of a day's walk: amount, decimals, 1 for an inflow, time, rowid. */
export type DayRow = [amount: string, decimals: number, inflow: number, ts: number, rowid: number];

/** Reads a wallet's rows of one token in [from, to), in time order, on one statement prepared here. */
export function dayRowsReader(db: Db): (workspaceId: string, walletId: string, from: number, to: number, symbol: string, address: string) => DayRow[] {
  // The wallet's rows of the day: without INDEXED BY, SQLite walks every row of the day (tx_by_time).
  const stmt = db
    .prepare(
      `SELECT t.amount, t.token_decimals, t.direction = 'inflow', t.ts, t.rowid FROM transactions t INDEXED BY tx_by_wallet
     WHERE t.workspace_id = ? AND t.wallet_id = ? AND t.ts >= ? AND t.ts < ? AND t.token_symbol = ? AND ifnull(t.token_address, '') = ? ORDER BY t.ts, t.id`,
    )
    .raw(true);
  return (workspaceId, walletId, from, to, symbol, address) => stmt.all(workspaceId, walletId, from, to, symbol, address) as DayRow[];
}

/** Each rowid's transaction id, time and wallet label, in the order given. */
export function rowsByRowid(db: Db, rowids: readonly number[]): { id: string; ts: number; label: string }[] {
  const row = db.prepare('SELECT t.id, t.ts, w.label FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.rowid = ?');
  return rowids.map((rowid) => row.get(rowid) as { id: string; ts: number; label: string });
}

const balanceRegistered = new WeakSet<Db>();

/**
 * `txa_balance(amount, decimals, direction)`: inflows minus outflows on BigInt base units as a SQL
 * aggregate, giving a canonical decimal (SQLite's own sums are 64-bit integers or binary floats,
 * and token amounts have up to 78 digits). Registered on the connection once.
 */
function registerBalanceFunction(db: Db): void {
  if (balanceRegistered.has(db)) return;
  db.aggregate('txa_balance', {
    start: () => new ExactSum(),
    step: (sum: ExactSum, ...row: unknown[]) =>
      row[2] === 'inflow' ? sum.add(row[0] as string, row[1] as number) : sum.subtract(row[0] as string, row[1] as number),
    result: (sum: ExactSum) => sum.toString(),
    deterministic: true,
    varargs: true,
  });
  balanceRegistered.add(db);
}

/** An assertion and the ledger's balance at its day's end: id, wallet id and label, symbol, address, day, asserted balance, actual balance. */
export type AssertionBalance = [
  id: string,
  walletId: string,
  label: string,
  symbol: string,
  address: string | null,
  day: string,
  expected: string,
  actual: string,
];

/** The assertions of the period (ending in it), each with the ledger's exact balance at its end; the earliest first. */
export function assertionBalances(db: Db, workspaceId: string, p: CheckPeriod): AssertionBalance[] {
  registerBalanceFunction(db);
  return db
    .prepare(
      `SELECT a.id, a.wallet_id, w.label, a.token_symbol, a.token_address, a.day, a.balance,
         (SELECT txa_balance(t.amount, t.token_decimals, t.direction) FROM transactions t
          WHERE t.workspace_id = a.workspace_id AND t.wallet_id = a.wallet_id AND t.ts < a.end_ts
            AND t.token_symbol = a.token_symbol AND t.token_address IS a.token_address) AS actual
       FROM balance_assertions a JOIN wallets w ON w.id = a.wallet_id
       WHERE a.workspace_id = ? AND a.end_ts > ? AND a.end_ts <= ? ORDER BY a.day, w.label, a.token_symbol, a.id`,
    )
    .raw(true)
    .all(workspaceId, p.startTs ?? -Infinity, p.endTs ?? Infinity) as AssertionBalance[];
}

export interface FailedExportRow {
  id: string;
  created_at: string;
  format: string;
  report_type: string | null;
  error_code: string | null;
  error_message: string | null;
}

/** Exports created in the period that failed, not cancelled: their count and the first `limit`. */
export function failedExportRows(db: Db, workspaceId: string, p: CheckPeriod, limit: number): { count: number; rows: FailedExportRow[] } {
  const where = "workspace_id = ? AND created_ts >= ? AND created_ts < ? AND status = 'failed' AND error_code IS NOT 'EXPORT_CANCELLED'";
  const params = [workspaceId, p.startTs ?? -Infinity, p.endTs ?? Infinity];
  const count = db
    .prepare(`SELECT count(*) FROM exports WHERE ${where}`)
    .pluck()
    .get(...params) as number;
  const rows = db
    .prepare(`SELECT id, created_at, format, report_type, error_code, error_message FROM exports WHERE ${where} ORDER BY created_ts, id LIMIT ${limit}`)
    .all(...params) as FailedExportRow[];
  return { count, rows };
}

/** Whether the period holds any row of the workspace (spam and zero-amount rows count: a sync fetched them). */
export function periodHasRows(db: Db, workspaceId: string, p: CheckPeriod): boolean {
  const wallets = p.walletIds === undefined ? '' : ` AND wallet_id IN (${p.walletIds.map(() => '?').join(', ') || 'NULL'})`;
  return (
    db
      .prepare(`SELECT 1 FROM transactions WHERE workspace_id = ? AND ts >= ? AND ts < ?${wallets} LIMIT 1`)
      .get(workspaceId, p.startTs ?? -Infinity, p.endTs ?? Infinity, ...(p.walletIds ?? [])) !== undefined
  );
}

export interface StaleWalletRow {
  wallet_id: string;
  wallet_label: string;
  chain: string;
  last_synced: string;
}

/** Wallets of the workspace synced at least once whose last sync is before `before` (an ISO time), the oldest first. */
export function walletsSyncedBefore(db: Db, workspaceId: string, before: string): StaleWalletRow[] {
  return db
    .prepare(
      `SELECT id AS wallet_id, label AS wallet_label, chain, last_synced FROM wallets
       WHERE workspace_id = ? AND last_synced IS NOT NULL AND last_synced < ? ORDER BY last_synced, label, id`,
    )
    .all(workspaceId, before) as StaleWalletRow[];
}

/**
 * The wallets whose lots may hold less or more than their rows add up to (checks/rollforward.ts):
 * those with a row the tax ledger does not take as its balance moves (spam, which the ledger
 * leaves out; an own-transfer leg, which moves lots between books; an inflow without a value,
 * which opens no lot) before `endTs`, and those with opening lots. Index reads only: the spam and
 * transfer-leg indexes, and tx_by_amount, which holds direction and value, for the inflows.
 */
export function walletsOffTheirRows(db: Db, workspaceId: string, endTs: number | undefined): Set<string> {
  const end = endTs ?? Number.MAX_SAFE_INTEGER;
  const queries = [
    'SELECT DISTINCT wallet_id FROM transactions INDEXED BY tx_spam WHERE workspace_id = ? AND spam = 1 AND ts < ?',
    'SELECT DISTINCT wallet_id FROM transactions INDEXED BY tx_transfer_legs WHERE transfer_id IS NOT NULL AND workspace_id = ? AND ts < ?',
    "SELECT DISTINCT wallet_id FROM transactions INDEXED BY tx_by_amount WHERE workspace_id = ? AND direction = 'inflow' AND fiat_cents IS NULL AND ts < ?",
  ];
  const wallets = new Set<string>();
  for (const sql of queries) for (const id of db.prepare(sql).pluck().all(workspaceId, end) as string[]) wallets.add(id);
  for (const id of db.prepare('SELECT DISTINCT wallet_id FROM opening_lots WHERE workspace_id = ?').pluck().all(workspaceId) as string[]) wallets.add(id);
  return wallets;
}
