/**
 * `txa schedules create`: a scheduled report (docs/server.md "Scheduled reports"). Its export is
 * made from the flags of `export create` (the same request, less the dates: each run exports the
 * last complete period of `--every`), delivered by `--email` or `--webhook-url`.
 */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { addFilterOptions } from '../../filter-flags.js';
import { action } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { exportBody, type RequestFlags } from '../export/request.js';
import { printSchedules } from './view.js';

export interface CreateOptions extends Omit<RequestFlags, 'delivery' | 'period' | 'startDate' | 'endDate'> {
  name: string;
  every: string;
  timeZone?: string;
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  if (opts.email === undefined && opts.webhookUrl === undefined)
    throw new TxaError('USAGE_ERROR', 'a schedule delivers its reports: pass --email a@x[,b@y] or --webhook-url URL', { field: 'email' });
  if (opts.email !== undefined && opts.webhookUrl !== undefined)
    throw new TxaError('USAGE_ERROR', 'pass --email or --webhook-url, not both: a schedule has one delivery', { field: 'webhook-url' });
  const ws = ctx.workspace();
  // commander sets --no-include-summary's value true by default: only the flag given is sent.
  const { filters, ...rest } = exportBody(ws, { ...opts, includeSummary: opts.includeSummary === false ? false : undefined });
  const { start_date: _s, end_date: _e, tax_year: _t, ...kept } = filters;
  const body = { ...rest, filters: kept, name: opts.name, every: opts.every, time_zone: opts.timeZone };
  const backend = await ctx.backend();
  if (body.filters.tag_ids) body.filters.tag_ids = await tagResolver(backend, ws)(body.filters.tag_ids, 'tag-ids');
  const schedule = await backend.createSchedule(ws, body);
  ctx.out.result(schedule, () => printSchedules(ctx.out, [schedule]));
  // Its runs happen later (serve, run-due), where a missing server fails each run: tell the person
  // now (a script's --json stderr stays clean, as the remote backend's is: the server's settings count there).
  if (opts.email !== undefined && !ctx.out.json && !ctx.isRemote() && !process.env.TXA_SMTP_URL)
    ctx.out.warn('no SMTP server is configured (TXA_SMTP_URL): each run fails to e-mail until it is set where serve or run-due runs');
}

export function register(parent: Command): void {
  const cmd = parent
    .command('create')
    .description('a scheduled report: each run exports the last complete period and delivers it (Pro and Enterprise workspaces)')
    .requiredOption('--name <name>', 'a name, 1 to 100 characters')
    .requiredOption('--every <frequency>', 'daily, weekly, monthly or quarterly: yesterday, the last ISO week, last month, last quarter')
    .option('--time-zone <name>', 'IANA time zone whose days the periods are, e.g. Europe/Berlin (default UTC)')
    .requiredOption('--format <format>', 'csv, json or pdf')
    .option(
      '--report-type <type>',
      'PDF: summary, detailed, tax, audit, form8949, positions or rollforward; CSV: tax, income, form8949, turbotax, taxact, reconciliation, positions or rollforward; JSON: tax, income, reconciliation, positions or rollforward (docs/reports.md)',
    )
    .option('--wallet-ids <ids>', 'comma-separated wallet ids');
  addFilterOptions(cmd, { dates: false })
    .option('--columns <a,b>', 'CSV columns in this order (default: all)')
    .option('--currency <code>', 'currency of values, converted with `txa rates` (default USD)')
    .option('--date-format <pattern>', "YYYY-MM-DD (default), MM/DD/YYYY or DD/MM/YYYY, optionally + ' HH:mm:ss' or ' HH:mm'")
    .option('--no-include-summary', 'a bare table without totals')
    .option('--group-by <key>', 'month, wallet, tag or token')
    .option('--pdf-title <title>', 'title of a PDF report')
    .option('--cost-basis <method>', 'tax report: fifo (default), lifo, hifo or specific')
    .option('--email <a,b>', 'recipients of each report (SMTP as exports: docs/exports.md)')
    .option('--webhook-url <url>', 'URL to POST export.completed to after each run')
    .action(action<CreateOptions>((ctx, flags) => run(ctx, flags)));
}
