/**
 * `txa check [--period P] [--allow KIND,KIND] [--json]` (docs/check.md): for CI,
 * exit 0 when the period is clean, 1 when anything is found. Local only.
 */
import type { Command } from 'commander';
import { CHECK_KINDS as KINDS, type CheckKind } from '../../../core/check-kinds.js';
import { TxaError } from '../../../core/errors.js';
import type { ChecksService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';
import { periodSeconds } from '../../period.js';
import { action, list } from '../../run.js';

type CheckReport = Awaited<ReturnType<ChecksService['run']>>;
type Finding = CheckReport['findings'][number];

export interface CheckOptions {
  period?: string;
  /** Each `--allow` given, as given (comma-separated kinds). */
  allow: string[];
}

/** Every `--allow` given, each comma-separated: `--allow untagged --allow unpriced` accepts both. */
function allowed(values: string[]): CheckKind[] {
  const kinds = values.flatMap((v) => list(v) ?? []);
  const unknown = kinds.find((k) => !(KINDS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new TxaError('USAGE_ERROR', `--allow takes kinds of findings: ${KINDS.join(', ')}; got '${unknown}'`, { field: 'allow' });
  return kinds as CheckKind[];
}

/** One line per example, in words a user can act on. */
// biome-ignore lint/suspicious/noExplicitAny: JSON read field by field, each checked where it is used
function exampleLine(kind: CheckKind, e: Record<string, any>): string {
  switch (kind) {
    case 'negative_balance':
      return `${e.wallet_label} ${e.token.symbol} is ${e.balance} after ${e.transaction_id} (${e.timestamp}): history is missing before it`;
    case 'assertion_failed':
      return `${e.wallet_label} ${e.token.symbol} at the end of ${e.at}: asserted ${e.expected}, the ledger has ${e.actual} (difference ${e.difference})`;
    case 'unrecorded_allocation':
      return `no allocation of the lots pooled before ${e.at} is recorded, and ${e.transaction_id} (${e.wallet_label}, ${e.timestamp}) disposes after it: record one with txa lots allocate`;
    case 'closed_period_changed':
      return e.since
        ? `through ${e.through}: the ${e.digest} digest differs from the first close's (${e.since.closed_at}), reopened by ${e.since.reopened_by} on ${e.since.reopened_at}: ${e.since.reason}`
        : `through ${e.through}: the ${e.digest} digest recorded ${e.closed_at} by ${e.closed_by} no longer matches the ledger`;
    case 'rollforward_difference':
      return `${e.wallet_label} ${e.asset}: the rows add up to ${e.balance}, the lots hold ${e.closing_quantity} (difference ${e.difference})`;
    case 'empty_period':
      return e.start_date
        ? `no rows from ${e.start_date} to ${e.end_date}: a report of it would be all zeros; import or sync the period's rows (txa wallet sync --all)`
        : 'the workspace has no rows: import or sync them first (txa import FILE, txa wallet sync --all)';
    case 'stale_sync':
      return `${e.wallet_label}${e.chain ? ` (${e.chain})` : ''} was last synced ${e.last_synced}, before the period's end (${e.period_end}): its last rows may be missing; txa wallet sync ${e.wallet_id}`;
    case 'failed_export':
      return `${e.export_id} (${e.format}, ${e.created_at}): ${e.error.code}: ${e.error.message}`;
    case 'unmatched_transfer':
      return `${e.timestamp} ${e.transaction_id} ${e.wallet_label} ${e.direction} ${e.amount} ${e.token} ${e.direction === 'inflow' ? 'from' : 'to'} ${e.counterparty_wallet_label}`;
    default:
      return `${e.timestamp} ${e.transaction_id} ${e.wallet_label} ${e.direction} ${e.amount} ${e.token}`;
  }
}

function printReport(out: Output, report: CheckReport, allow: CheckKind[]): void {
  const found = new Map<CheckKind, Finding>(report.findings.map((f) => [f.kind, f]));
  out.table(
    ['CHECK', 'FOUND', 'STATUS'],
    KINDS.map((k) => [k, allow.includes(k) ? '' : (found.get(k)?.count ?? 0), allow.includes(k) ? 'allowed' : found.has(k) ? 'FAILED' : 'ok']),
    ['left', 'right', 'left'],
  );
  for (const f of report.findings) {
    out.line();
    out.heading(`${f.kind}: ${f.count}${f.count > f.examples.length ? ` (the first ${f.examples.length})` : ''}`);
    // Wrapped at word boundaries on a terminal, never in the middle of a number or a word.
    for (const e of f.examples) out.line(out.joinToWidth(`  ${exampleLine(f.kind, e)}`.split(' '), ' ', '    '));
  }
}

export async function run(ctx: Context, opts: CheckOptions): Promise<void> {
  const allow = allowed(opts.allow);
  const period = periodSeconds(opts.period);
  const ws = ctx.workspace();
  const report = await (await ctx.local('check')).checks().then((c) => c.run(ws, period, allow));
  if (ctx.out.json) ctx.out.body({ success: true, data: report });
  else printReport(ctx.out, report, allow);
  ctx.out.notice(report.clean ? 'check: clean' : `check: ${report.findings.map((f) => `${f.count} ${f.kind}`).join(', ')}`);
  if (!report.clean) process.exitCode = 1;
}

export function register(program: Command): void {
  program
    .command('check')
    .description('is the ledger ready to report? exit 0 when clean, 1 when anything is found (local only; docs/check.md)')
    .option('--period <period>', 'YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd (default: all)')
    .option(
      '--allow <kinds>',
      `kinds of findings to accept, comma-separated or repeated: ${KINDS.join(', ')}`,
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(action<CheckOptions>((ctx, flags) => run(ctx, flags)));
}
