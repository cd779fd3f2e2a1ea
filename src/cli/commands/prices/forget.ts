/** `txa prices forget` (docs/prices.md, "txa prices forget"): a selector is required, so nobody empties the cache by accident. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { PricesService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import { dateRange } from '../../filter-flags.js';
import type { Output } from '../../output.js';
import { action, choice } from '../../run.js';
import { CACHE_SOURCES } from './sources.js';

export interface ForgetOptions {
  source?: string;
  token?: string;
  period?: string;
  startDate?: string;
  endDate?: string;
  invalid?: boolean;
  all?: boolean;
  dryRun?: boolean;
}

/** The human form of a forget: the count by source on stdout; on stderr, that filled values stay. */
function printForget(out: Output, r: ReturnType<PricesService['forget']>): void {
  const bySource = Object.entries(r.sources)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`);
  out.line(
    `${r.dry_run ? 'would forget' : 'forgot'} ${r.forgotten} cached price${r.forgotten === 1 ? '' : 's'}${bySource.length ? ` (${bySource.join(', ')})` : ''}`,
  );
  if (r.forgotten > 0)
    out.notice('Rows valued with them keep their values; clear one with txa tx update ID --fiat-value none, then txa prices fill prices it again.');
}

export async function run(ctx: Context, opts: ForgetOptions): Promise<void> {
  const source = choice('source', opts.source, CACHE_SOURCES);
  const { start_date, end_date } = dateRange(opts);
  const narrowed = opts.token !== undefined || start_date !== undefined || end_date !== undefined || opts.invalid;
  if (opts.all && narrowed)
    throw new TxaError('USAGE_ERROR', '--all cannot be combined with --token, --period, --start-date, --end-date or --invalid', { field: 'all' });
  if (!opts.all && !narrowed)
    throw new TxaError('USAGE_ERROR', 'prices forget needs --token, --period, --start-date, --end-date, --invalid or --all', {
      hint: 'txa prices forget --all forgets every fetched price.',
    });
  const prices = await (await ctx.local('prices forget')).prices();
  const result = prices.forget({ source, token: opts.token, startDate: start_date, endDate: end_date, invalid: opts.invalid, dryRun: opts.dryRun });
  ctx.out.result(result, () => printForget(ctx.out, result));
}

export function register(parent: Command): void {
  parent
    .command('forget')
    .description('remove cached prices, so the next fill asks again (fetched ones; imported ones with --source import)')
    .option('--source <source>', 'import, defillama or coingecko (default: defillama and coingecko)')
    .option('--token <token>', 'a symbol, chain:address or coingecko:<id>')
    .option('--period <period>', 'YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd')
    .option('--start-date <YYYY-MM-DD>', 'first day, inclusive (UTC)')
    .option('--end-date <YYYY-MM-DD>', 'last day, inclusive (UTC)')
    .option('--invalid', 'only entries an older txa cached from a bad answer (a time outside their day, a price above 10^12)')
    .option('--all', 'every entry of the source(s)')
    .option('--dry-run', 'count, remove nothing')
    .action(action<ForgetOptions>((ctx, flags) => run(ctx, flags)));
}
