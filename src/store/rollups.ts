/**
 * Daily and monthly rollups: per workspace, day (or month), wallet, token and direction, the
 * count and the fiat sum of transactions that are not spam (spam rows are few: a summary that
 * includes them adds theirs from the rows). They are updated in the same database transaction as
 * the rows they count, so summaries over dates, wallets, chains, tokens and directions read a
 * few hundred rollup rows instead of scanning every matching transaction, and stay exact
 * (integer cents). A summary reads whole months from rollup_monthly and only the partial
 * months at the edges of its date range from rollup_daily.
 *
 * The tag rollups (migration 16: tag_rollup_daily, days only) add a tag to the key, and tag ''
 * for every tagged row once; triggers keep them. They answer a summary of one tag id, of
 * has_tags=true, and of has_tags=false (all rows less the tagged ones). Several tag ids sum from
 * the rows reached through the links: a row holding two of them must count once.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { TxFilter } from '../core/filters.js';
import { rollupCanAnswer } from '../core/filters.js';
import { DAY_SECONDS, epochDay } from '../core/dates.js';
import { dimensionClauses, whereOf } from './transactions.js';
import type { NewTransaction } from './transactions.js';

export interface Totals {
  inflowCents: number;
  outflowCents: number;
  count: number;
}

/**
 * The key of the monthly rollups: the epoch day (days since 1970-01-01) of the first day of the
 * UTC month that holds `day`, so month bounds compare with day bounds directly.
 */
function monthOf(day: number): number {
  const d = new Date(day * DAY_SECONDS * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / (DAY_SECONDS * 1000);
}

/** The first day of the month after the one that starts on `month`. */
function nextMonth(month: number): number {
  const d = new Date(month * DAY_SECONDS * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / (DAY_SECONDS * 1000);
}

/** The rollup tables and the column of each that holds its period (table names are fixed, never input). */
const DAILY = { table: 'rollup_daily', period: 'day' } as const;
const MONTHLY = { table: 'rollup_monthly', period: 'month' } as const;
const TAG_DAILY = { table: 'tag_rollup_daily', period: 'day' } as const;
type Rollup = typeof DAILY | typeof MONTHLY | typeof TAG_DAILY;

/** The rollup columns of a row: what it counts under and its value. */
export type RollupRow = Pick<NewTransaction, 'workspace_id' | 'wallet_id' | 'chain' | 'token_symbol' | 'direction' | 'ts' | 'fiat_cents'>;

function addTo(db: Db, rollup: Rollup, rows: RollupRow[], periodOf: (day: number) => number, sign: 1 | -1): void {
  const acc = new Map<string, { r: RollupRow; period: number; n: number; cents: number }>();
  for (const r of rows) {
    const period = periodOf(epochDay(r.ts));
    const key = `${r.workspace_id}\0${period}\0${r.wallet_id}\0${r.token_symbol}\0${r.direction}`;
    const a = acc.get(key);
    if (a) {
      a.n += 1;
      a.cents += r.fiat_cents ?? 0;
    } else {
      acc.set(key, { r, period, n: 1, cents: r.fiat_cents ?? 0 });
    }
  }
  const upsert = db.prepare(
    `INSERT INTO ${rollup.table} (workspace_id, ${rollup.period}, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, ${rollup.period}, wallet_id, token_symbol, direction)
     DO UPDATE SET tx_count = tx_count + excluded.tx_count, fiat_cents = fiat_cents + excluded.fiat_cents`,
  );
  for (const { r, period, n, cents } of acc.values()) {
    upsert.run(r.workspace_id, period, r.wallet_id, r.chain, r.token_symbol, r.direction, sign * n, sign * cents);
  }
}

/** Counts rows in (sign 1) or out of (sign -1) the rollups; the caller passes only rows that are not spam. */
export function addToRollups(db: Db, rows: RollupRow[], sign: 1 | -1 = 1): void {
  if (rows.length === 0) return;
  addTo(db, DAILY, rows, (day) => day, sign);
  addTo(db, MONTHLY, rows, monthOf, sign);
}

/** Drops a removed wallet's rollups; its rows' links go without counting out (migration 16). */
export function removeWalletRollups(db: Db, walletId: string): void {
  for (const { table } of [DAILY, MONTHLY, TAG_DAILY]) db.prepare(`DELETE FROM ${table} WHERE wallet_id = ?`).run(walletId);
}

function totalsOf(rows: { direction: string; n: number; cents: number | null }[]): Totals {
  const t: Totals = { inflowCents: 0, outflowCents: 0, count: 0 };
  for (const row of rows) {
    t.count += row.n;
    if (row.direction === 'inflow') t.inflowCents += row.cents ?? 0;
    else t.outflowCents += row.cents ?? 0;
  }
  return t;
}

const plus = (a: Totals, b: Totals, sign: 1 | -1 = 1): Totals => ({
  inflowCents: a.inflowCents + sign * b.inflowCents,
  outflowCents: a.outflowCents + sign * b.outflowCents,
  count: a.count + sign * b.count,
});

/**
 * Which rollups answer the filter's tag part: none asked (`all`), one tag id or has_tags=true
 * (`tag`: that id, or '' for every tagged row), has_tags=false (`untagged`: all less ''), or
 * none can (undefined): several tag ids, tag ids with has_tags=false, or other per-row predicates.
 */
type TagRollup = { kind: 'all' } | { kind: 'tag'; tag: string } | { kind: 'untagged' };

function tagRollupOf(f: TxFilter): TagRollup | undefined {
  const { tagIds, hasTags, ...rest } = f;
  if (!rollupCanAnswer(rest)) return undefined;
  if (tagIds) {
    const ids = new Set(tagIds);
    return ids.size === 1 && hasTags !== false ? { kind: 'tag', tag: tagIds[0]! } : undefined;
  }
  if (hasTags === undefined) return { kind: 'all' };
  return hasTags ? { kind: 'tag', tag: '' } : { kind: 'untagged' };
}

/**
 * Exact totals of a filter: from the rollups where they can answer it (plus the spam rows,
 * which they leave out, when the filter includes them), else from the rows.
 */
export function totals(db: Db, workspaceId: string, f: TxFilter): Totals {
  const by = tagRollupOf(f);
  if (by === undefined || f.spam === 'only') return totalsFromRows(db, workspaceId, f);
  const t =
    by.kind === 'all'
      ? totalsFromRollups(db, workspaceId, f)
      : by.kind === 'tag'
        ? totalsFromRollups(db, workspaceId, f, by.tag)
        : plus(totalsFromRollups(db, workspaceId, f), totalsFromRollups(db, workspaceId, f, ''), -1);
  if (f.spam !== 'include') return t;
  return plus(t, totalsFromRows(db, workspaceId, { ...f, spam: 'only' }));
}

/** The plain aggregate over the matching rows; a tag filter reaches them through its links (except the few spam rows). */
export function totalsFromRows(db: Db, workspaceId: string, f: TxFilter): Totals {
  const w = whereOf(workspaceId, f, f.spam === 'only' ? 'walk' : 'drive');
  const rows = prepareCached(db, `SELECT t.direction, count(*) AS n, sum(t.fiat_cents) AS cents FROM transactions t WHERE ${w.sql} GROUP BY t.direction`).all(
    ...w.params,
  ) as { direction: string; n: number; cents: number | null }[];
  return totalsOf(rows);
}

/** One half-open period range [from, to) of one rollup table; undefined = unbounded. */
interface Span {
  rollup: Rollup;
  from?: number;
  to?: number;
}

/**
 * Splits the day range [startDay, endDay) into the whole months inside it (monthly table) and
 * the partial months at each edge (daily table). An open end stays open in the monthly span.
 */
function spansOf(startDay: number | undefined, endDay: number | undefined): Span[] {
  const firstWhole = startDay === undefined ? undefined : monthOf(startDay) === startDay ? startDay : nextMonth(monthOf(startDay));
  const endWhole = endDay === undefined ? undefined : monthOf(endDay);
  if (firstWhole !== undefined && endWhole !== undefined && firstWhole >= endWhole) {
    return [{ rollup: DAILY, from: startDay, to: endDay }];
  }
  const spans: Span[] = [{ rollup: MONTHLY, from: firstWhole, to: endWhole }];
  if (startDay !== undefined && startDay < firstWhole!) spans.push({ rollup: DAILY, from: startDay, to: firstWhole });
  if (endDay !== undefined && endWhole! < endDay) spans.push({ rollup: DAILY, from: endWhole, to: endDay });
  return spans;
}

/**
 * Totals from the rollups, or with `tag` from the daily tag rollups of that tag ('' = every
 * tagged row); the filter's own tag part is the caller's (tagRollupOf). Whole days only, which is what
 * start_date/end_date are (both are whole UTC days); the filter's bounds are day starts. One
 * query: a UNION ALL of at most three spans (the whole months, and the partial months at each
 * edge), summed by direction.
 */
export function totalsFromRollups(db: Db, workspaceId: string, f: TxFilter, tag?: string): Totals {
  const startDay = f.startTs === undefined ? undefined : Math.floor(f.startTs / DAY_SECONDS);
  const endDay = f.endTs === undefined ? undefined : Math.floor(f.endTs / DAY_SECONDS);
  const spans: Span[] = tag === undefined ? spansOf(startDay, endDay) : [{ rollup: TAG_DAILY, from: startDay, to: endDay }];
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const { rollup, from, to } of spans) {
    const w = dimensionClauses(workspaceId, f);
    if (tag !== undefined) w.add('tag_id = ?', tag);
    if (from !== undefined) w.add(`${rollup.period} >= ?`, from);
    if (to !== undefined) w.add(`${rollup.period} < ?`, to);
    const built = w.build();
    parts.push(`SELECT direction, tx_count, fiat_cents FROM ${rollup.table} WHERE ${built.sql}`);
    params.push(...built.params);
  }
  const rows = prepareCached(db, `SELECT direction, sum(tx_count) AS n, sum(fiat_cents) AS cents FROM (${parts.join(' UNION ALL ')}) GROUP BY direction`).all(
    ...params,
  ) as { direction: string; n: number; cents: number | null }[];
  return totalsOf(rows);
}
