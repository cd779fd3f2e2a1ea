/** How `period close`, `reopen` and `list` print one period. */
import type { Context } from '../../context.js';
import type { Period } from '../../../core/types.js';
import { TxaError } from '../../../core/errors.js';

export function showPeriod(ctx: Context, period: Period): void {
  ctx.out.result(period, () => printPeriod(ctx, period));
}

function printPeriod(ctx: Context, period: Period): void {
  ctx.out.record([
    ['through', period.through],
    ['status', period.status],
    ['from', period.from ?? '(the first row)'],
    ['note', period.note ?? ''],
    ['closed', `${period.closed_at} by ${period.closed_by}`],
    ...(period.reopened_at ? [['reopened', `${period.reopened_at} by ${period.reopened_by}: ${period.reason}`] as [string, string]] : []),
    ...digestPairs(ctx, period),
  ]);
}

/**
 * The digests: on a terminal indented under one heading, so a 64-digit digest and its label fit
 * 80 columns; in a pipe one `<name> digest` key each, for scripts.
 */
function digestPairs(ctx: Context, period: Period): [string, string][] {
  const named: [string, string][] = [['rows', period.digests?.rows ?? ''], ...Object.entries(period.digests?.reports ?? {})];
  if (!ctx.out.stdoutTty) return named.map(([name, digest]) => [`${name} digest`, digest]);
  return [['digests', 'SHA-256 (docs/periods.md "Digests")'], ...named.map(([name, digest]) => [`  ${name}`, digest] as [string, string])];
}

/** A flag the command needs, or the usage error naming it (before any request). */
export function required(value: string | undefined, flag: string, what: string): string {
  if (value === undefined || value.trim() === '') throw new TxaError('USAGE_ERROR', `${flag} is required: ${what}`, { field: flag.replace(/^--/, '') });
  return value;
}
