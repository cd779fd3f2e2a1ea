/** `txa prices fill [--source S] [--period P]`: every row without a fiat value, at its day's price (docs/prices.md). */
import type { Command } from 'commander';
import { now } from '../../../core/clock.js';
import { DAY_SECONDS, expandPeriod, parseDay } from '../../../core/dates.js';
import type { PricesService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import { pricesEnv } from '../../env-settings.js';
import type { Output } from '../../output.js';
import { action, choice } from '../../run.js';
import { FETCH_SOURCES } from './sources.js';

export interface FillOptions {
  source?: string;
  period?: string;
}

type Filled = Awaited<ReturnType<PricesService['fill']>>;

/** The human form of a fill: one line on stdout (stderr beside another command's table), each reason rows stayed unpriced on stderr. */
export function printFill(out: Output, source: string, r: Filled['result'], unpriced: Filled['unpriced'], aside = false): void {
  (aside ? out.notice.bind(out) : out.line.bind(out))(
    `priced ${r.priced} row${r.priced === 1 ? '' : 's'}, ${r.unpriced} left without a value (${r.requests} requests to ${source}, ${r.cached} token-days from the cache)`,
  );
  for (const u of unpriced) out.notice(`${u.rows} row${u.rows === 1 ? '' : 's'} unpriced: ${u.reason}, e.g. ${u.example}`);
}

export async function run(ctx: Context, opts: FillOptions): Promise<void> {
  const range = opts.period === undefined ? undefined : expandPeriod(opts.period, now());
  const ws = ctx.workspace();
  const source = choice('source', opts.source, FETCH_SOURCES);
  // TXA_PRICES_* before the ledger is opened: a bad value creates no ledger file (docs/architecture.md "Output and exit codes").
  const settings = await pricesEnv();
  const prices = await (await ctx.local('prices fill')).prices();
  const {
    result,
    unpriced,
    source: api,
  } = await prices.fill(ws, {
    source,
    settings,
    range: range && { startTs: parseDay(range.start_date)!, endTs: parseDay(range.end_date)! + DAY_SECONDS },
    onNotice: (m) => ctx.out.notice(m),
  });
  ctx.out.result(result, () => printFill(ctx.out, api, result, unpriced));
}

export function register(parent: Command): void {
  parent
    .command('fill')
    .description("value every row without a fiat value (fees included, spam left out) at its day's price")
    .option('--source <source>', 'defillama (default, no key) or coingecko (TXA_COINGECKO_API_KEY)')
    .option('--period <period>', 'YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd (default: all)')
    .action(action<FillOptions>((ctx, flags) => run(ctx, flags)));
}
