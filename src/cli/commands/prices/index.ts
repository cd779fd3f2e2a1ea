/** `txa prices fill|import|list|forget` (CONTRACT §11, docs/prices.md): a fiat value for every row, through the local price cache. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { reportBadRows } from '../../bad-rows.js';
import { DAY_SECONDS, expandPeriod, parseDay } from '../../../core/dates.js';
import { now } from '../../../core/clock.js';
import { action } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import type { Output } from '../../output.js';
import type { FillResult, Unpriced } from '../../../prices/fill.js';
import type { ForgetResult } from '../../../prices/forget.js';
import type { PriceSource } from '../../../store/prices.js';
import { dateRange } from '../../filter-flags.js';

const CACHE_SOURCES: readonly PriceSource[] = ['import', 'defillama', 'coingecko'];

/** `--source` of list and forget: a source of the cache's entries. */
function cacheSource(value: string | undefined): PriceSource | undefined {
  if (value === undefined || (CACHE_SOURCES as string[]).includes(value)) return value as PriceSource | undefined;
  throw new TxaError('USAGE_ERROR', `--source must be one of ${CACHE_SOURCES.join(', ')}, got '${value}'`, { field: 'source' });
}

/** The human form of a fill: one line on stdout (stderr beside another command's table), each reason rows stayed unpriced on stderr. */
export function printFill(out: Output, source: string, r: FillResult, unpriced: Unpriced[], aside = false): void {
  (aside ? out.notice.bind(out) : out.line.bind(out))(
    `priced ${r.priced} row${r.priced === 1 ? '' : 's'}, ${r.unpriced} left without a value (${r.requests} requests to ${source}, ${r.cached} token-days from the cache)`,
  );
  for (const u of unpriced) out.notice(`${u.rows} row${u.rows === 1 ? '' : 's'} unpriced: ${u.reason}, e.g. ${u.example}`);
}

export function registerPrices(program: Command): void {
  const prices = program.command('prices').description('token prices for rows without a fiat value, through a local cache (local only)');

  prices
    .command('fill')
    .description("value every row without a fiat value (fees included, spam left out) at its day's price")
    .option('--source <source>', 'defillama (default, no key) or coingecko (TXA_COINGECKO_API_KEY)')
    .option('--period <period>', 'YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd (default: all)')
    .action(
      action<{ source?: string; period?: string }>(async (ctx, o) => {
        const range = o.period === undefined ? undefined : expandPeriod(o.period, now());
        const ws = ctx.workspace();
        const { priceSettings } = await import('../../../prices/settings.js');
        const { priceApi } = await import('../../../prices/apis.js');
        const api = priceApi(o.source, priceSettings(process.env), (m) => ctx.out.notice(m));
        const local = await ctx.local('prices fill');
        const { fillPrices } = await import('../../../prices/fill.js');
        const { result, unpriced } = await fillPrices(
          local.engine,
          ws,
          api,
          range && { startTs: parseDay(range.start_date)!, endTs: parseDay(range.end_date)! + DAY_SECONDS },
        );
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else printFill(ctx.out, api.http.name, result, unpriced);
      }),
    );

  prices
    .command('import')
    .description('load a CSV of date,token,price[,currency] into the cache (all rows or none); fill prefers these prices')
    .argument('<file>', 'CSV file')
    .action(
      action(async (ctx, _o, [file]) => {
        const local = await ctx.local('prices import');
        const { importPrices } = await import('../../../prices/import-file.js');
        try {
          const res = await importPrices(local.engine, file!);
          if (ctx.out.json) ctx.out.body({ success: true, data: res });
          else ctx.out.line(`imported ${res.imported} prices`);
        } catch (err) {
          if (reportBadRows(ctx.out, err)) return;
          throw err;
        }
      }),
    );

  withPageFlags(
    prices
      .command('list')
      .description('the price cache, by source, token and day')
      .option('--source <source>', 'import, defillama or coingecko')
      .option('--token <token>', 'a symbol, chain:address or coingecko:<id>'),
  ).action(
    action<PageFlags & { source?: string; token?: string }>(async (ctx, o) => {
      const source = cacheSource(o.source);
      const local = await ctx.local('prices list');
      const { listPrices } = await import('../../../store/prices.js');
      const { entryTime } = await import('../../../prices/points.js');
      const entries = listPrices(local.engine.db, { sources: source && [source], token: o.token }).map((e) => ({
        date: e.day,
        token: e.token,
        source: e.source,
        price: e.price,
        currency: e.currency,
        // An older txa may have cached a time that is none (docs/prices.md, "Bad answers"): null, not a crash.
        price_timestamp: entryTime(e.price_ts),
        fetched_at: e.fetched_at,
      }));
      const body = listPage(entries, o);
      if (ctx.out.json) ctx.out.body(body);
      else
        ctx.out.table(
          ['DATE', 'TOKEN', 'SOURCE', 'PRICE', 'CURRENCY'],
          body.data.map((e) => [e.date, e.token, e.source, e.price ?? 'none', e.currency]),
          ['left', 'left', 'left', 'right', 'left'],
        );
    }),
  );

  registerForget(prices);
}

interface ForgetFlags {
  source?: string;
  token?: string;
  period?: string;
  startDate?: string;
  endDate?: string;
  invalid?: boolean;
  all?: boolean;
  dryRun?: boolean;
}

/** `txa prices forget` (docs/prices.md, "txa prices forget"): a selector is required, so nobody empties the cache by accident. */
function registerForget(prices: Command): void {
  prices
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
    .action(
      action<ForgetFlags>(async (ctx, o) => {
        const source = cacheSource(o.source);
        const { start_date, end_date } = dateRange(o);
        const narrowed = o.token !== undefined || start_date !== undefined || end_date !== undefined || o.invalid;
        if (o.all && narrowed)
          throw new TxaError('USAGE_ERROR', '--all cannot be combined with --token, --period, --start-date, --end-date or --invalid', { field: 'all' });
        if (!o.all && !narrowed)
          throw new TxaError('USAGE_ERROR', 'prices forget needs --token, --period, --start-date, --end-date, --invalid or --all', {
            hint: 'txa prices forget --all forgets every fetched price.',
          });
        const local = await ctx.local('prices forget');
        const { forgetPrices } = await import('../../../prices/forget.js');
        const result = forgetPrices(local.engine, { source, token: o.token, startDate: start_date, endDate: end_date, invalid: o.invalid, dryRun: o.dryRun });
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else printForget(ctx.out, result);
      }),
    );
}

/** The human form of a forget: the count by source on stdout; on stderr, that filled values stay. */
function printForget(out: Output, r: ForgetResult): void {
  const bySource = Object.entries(r.sources)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`);
  out.line(
    `${r.dry_run ? 'would forget' : 'forgot'} ${r.forgotten} cached price${r.forgotten === 1 ? '' : 's'}${bySource.length ? ` (${bySource.join(', ')})` : ''}`,
  );
  if (r.forgotten > 0)
    out.notice('Rows valued with them keep their values; clear one with txa tx update ID --fiat-value none, then txa prices fill prices it again.');
}
