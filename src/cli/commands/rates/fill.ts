/** `txa rates fill [--from DAY] [--to DAY] [--currency GBP,…]`: the European Central Bank's reference rates (docs/prices.md "Exchange rates"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { fxEnv } from '../../env-settings.js';
import { action } from '../../run.js';

export interface FillOptions {
  from?: string;
  to?: string;
  /** Comma-separated codes. */
  currency?: string;
}

export async function run(ctx: Context, opts: FillOptions): Promise<void> {
  // TXA_FX_* before the ledger is opened: a bad value creates no ledger file.
  const settings = await fxEnv();
  const ws = ctx.workspace();
  const rates = await (await ctx.local('rates fill')).rates();
  const currencies = opts.currency?.split(',').filter((c) => c.trim() !== '');
  const { result, notices } = await rates.fill(
    ws,
    { ...(opts.from !== undefined && { from: opts.from }), ...(opts.to !== undefined && { to: opts.to }), ...(currencies && { currencies }) },
    settings,
    (m) => ctx.out.notice(m),
  );
  ctx.out.result(result, () => {
    const span = result.from === null ? 'no valued row, nothing to fill (give --from)' : `${result.from} to ${result.to}`;
    ctx.out.line(
      `stored ${result.rates} rate${result.rates === 1 ? '' : 's'} ${result.base}→${result.currencies.join(',')}, ${span} (${result.requests} request${result.requests === 1 ? '' : 's'} to the ECB)`,
    );
    for (const n of notices) ctx.out.notice(n);
  });
}

export function register(parent: Command): void {
  parent
    .command('fill')
    .description("daily rates from the base currency from the European Central Bank's euro reference rates (TXA_FX_URL), cached")
    .option('--from <day>', "first day YYYY-MM-DD (default: the day of the workspace's earliest valued row)")
    .option('--to <day>', 'last day YYYY-MM-DD (default: yesterday)')
    .option('--currency <codes>', 'comma-separated codes (default: USD,GBP,CAD,EUR,AUD less the base currency)')
    .action(action<FillOptions>((ctx, flags) => run(ctx, flags)));
}
