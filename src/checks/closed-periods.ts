/**
 * `closed_period_changed` (docs/check.md; docs/periods.md, "Digests"): a close in force whose
 * digests no longer match the ledger (rows edited behind txa's back, a file restored), or whose
 * digests differ from those of the first close of the same day (reopened, changed, closed again:
 * the figures differ from the ones filed).
 */
import type { Db } from '../store/db.js';
import type { Engine } from '../engine/engine.js';
import { closedPeriods, endOfDay, periodRecords, type PeriodRecordRow } from '../store/periods.js';
import { reportDigests } from '../engine/periods.js';
import { rowsDigestOf } from '../engine/rows-digest.js';
import type { PeriodDigests } from '../core/types.js';
import type { CheckPeriod } from '../store/checks.js';

/** A finding's example: one digest of one close. */
export interface DigestMismatch extends Record<string, unknown> {
  through: string;
  /** `rows`, or the report type. */
  digest: string;
  /** The digest the close recorded (or, for `since`, the first close's). */
  recorded: string;
  /** The digest now (or, for `since`, the current close's). */
  now: string;
  closed_at: string;
  closed_by: string;
  /** Set when the difference is between two closes of the day: the reopen between them. */
  since?: { closed_at: string; reopened_at: string; reopened_by: string; reason: string | null };
}

const digestsOf = (r: PeriodRecordRow): PeriodDigests | null => (r.digests ? (JSON.parse(r.digests) as PeriodDigests) : null);

/** The closes in force that the check's period reaches (a close covers every row through its day). */
function closesIn(db: Db, workspaceId: string, p: CheckPeriod): PeriodRecordRow[] {
  return closedPeriods(db, workspaceId).filter((c) => p.startTs === undefined || p.startTs < endOfDay(c.through));
}

/** Where the current close's digests differ from the first close of the same day, with the reopen between them. */
function sinceFirstClose(records: PeriodRecordRow[], close: PeriodRecordRow): DigestMismatch[] {
  const same = records.filter((r) => r.through === close.through && r.seq < close.seq);
  const first = same.find((r) => r.action === 'close');
  const reopen = [...same].reverse().find((r) => r.action === 'reopen');
  const [was, is] = [first && digestsOf(first), digestsOf(close)];
  if (!first || !reopen || !was || !is) return [];
  // Rows digests of two versions are not comparable: the reports' still are.
  const sameVersion = (was.rows_version ?? 1) === (is.rows_version ?? 1);
  const pairs: [string, string | undefined, string | undefined][] = [
    ...(sameVersion ? [['rows', was.rows, is.rows] as [string, string, string]] : []),
    ...Object.keys(was.reports).map((k): [string, string | undefined, string | undefined] => [k, was.reports[k], is.reports[k]]),
  ];
  return pairs
    .filter(([, a, b]) => a !== undefined && b !== undefined && a !== b)
    .map(([digest, a, b]) => ({
      through: close.through,
      digest,
      recorded: a!,
      now: b!,
      closed_at: close.at,
      closed_by: close.actor,
      since: { closed_at: first.at, reopened_at: reopen.at, reopened_by: reopen.actor, reason: reopen.reason },
    }));
}

/** The rows digests recomputed, and the closes compared with their first: the part of the check that reads only the database. */
export function closedPeriodsChanged(db: Db, workspaceId: string, p: CheckPeriod): { count: number; examples: DigestMismatch[] } {
  const records = periodRecords(db, workspaceId);
  const found: DigestMismatch[] = [];
  for (const close of closesIn(db, workspaceId, p)) {
    const recorded = digestsOf(close);
    if (!recorded) continue;
    // Each close by the version its digest was recorded with (docs/periods.md "Digests").
    const now = rowsDigestOf(db, workspaceId, close.through, recorded.rows_version);
    if (now !== recorded.rows)
      found.push({ through: close.through, digest: 'rows', recorded: recorded.rows, now, closed_at: close.at, closed_by: close.actor });
    found.push(...sinceFirstClose(records, close));
  }
  return { count: found.length, examples: found };
}

/** The report digests recomputed (each report written to a temp file, so apart from the snapshot of the other kinds). */
export async function closedReportsChanged(engine: Engine, workspaceId: string, p: CheckPeriod): Promise<DigestMismatch[]> {
  const found: DigestMismatch[] = [];
  const closes = closesIn(engine.db, workspaceId, p);
  const all = closedPeriods(engine.db, workspaceId);
  for (const close of closes) {
    const recorded = digestsOf(close);
    if (!recorded) continue;
    // The close before it, by day (the two lists are two reads: their rows are not the same objects).
    const before = all[all.findIndex((c) => c.through === close.through) - 1];
    const now = await reportDigests(engine, workspaceId, close.through, before ? new Date(endOfDay(before.through) * 1000).toISOString().slice(0, 10) : null);
    for (const [type, digest] of Object.entries(recorded.reports)) {
      if (now[type] !== undefined && now[type] !== digest)
        found.push({ through: close.through, digest: type, recorded: digest, now: now[type]!, closed_at: close.at, closed_by: close.actor });
    }
  }
  return found;
}
