/**
 * `txa check` (docs/check.md): is the ledger ready to report for a period? Each kind
 * is one query (kinds.ts), all read from one snapshot. Kinds the caller allows are left out of the
 * findings (and not run); the report is clean when no finding is left.
 */
import type { Engine } from '../engine/engine.js';
import { CHECK_KINDS, EXAMPLES, KIND_QUERIES, wholeLedgerCounts, type CheckKind, type Period } from './kinds.js';
import { closedReportsChanged } from './closed-periods.js';
import { balanceDaysComplete, ensureBalanceDays } from '../store/balance-days.js';

export { CHECK_KINDS, type CheckKind, type Period } from './kinds.js';

export interface Finding {
  kind: CheckKind;
  count: number;
  examples: Record<string, unknown>[];
}

/** The `data` of `txa check --json`. */
export interface CheckReport {
  clean: boolean;
  findings: Finding[];
}

export function runChecks(engine: Engine, workspaceId: string, period: Period, allow: readonly CheckKind[]): CheckReport {
  engine.workspace(workspaceId);
  const run = CHECK_KINDS.filter((k) => !allow.includes(k));
  // A ledger with rows from before the daily flows gets them once, before the read snapshot.
  const usesDays = run.includes('negative_balance') || run.includes('rollforward_difference');
  if (usesDays && !balanceDaysComplete(engine.db)) engine.write(() => ensureBalanceDays(engine.db));
  const whole = period.startTs === undefined && period.endTs === undefined;
  const findings = engine.db
    .transaction(() => {
      const known = whole ? wholeLedgerCounts(engine.db, workspaceId, run) : {};
      return run.map((kind) => ({ kind, ...KIND_QUERIES[kind](engine.db, workspaceId, period, known[kind], engine) }));
    })()
    .filter((f) => f.count > 0);
  return { clean: findings.length === 0, findings };
}

/**
 * runChecks, and for `closed_period_changed` also the report digests of the closes, which are
 * written to files and so run after the snapshot of the other kinds (docs/check.md).
 */
export async function runAllChecks(engine: Engine, workspaceId: string, period: Period, allow: readonly CheckKind[]): Promise<CheckReport> {
  const report = runChecks(engine, workspaceId, period, allow);
  if (allow.includes('closed_period_changed')) return report;
  const reports = await closedReportsChanged(engine, workspaceId, period);
  if (reports.length === 0) return report;
  const kept = report.findings.find((f) => f.kind === 'closed_period_changed');
  const examples = [...(kept?.examples ?? []), ...reports].slice(0, EXAMPLES);
  const finding: Finding = { kind: 'closed_period_changed', count: (kept?.count ?? 0) + reports.length, examples };
  const findings = [...report.findings.filter((f) => f.kind !== 'closed_period_changed'), finding];
  return { clean: false, findings };
}
