/** `txa prices fill|import|list` (CONTRACT §11, docs/prices.md): a fiat value for every row, through the local price cache. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { reportBadRows } from '../../bad-rows.js';
import { DAY_SECONDS, expandPeriod, parseDay } from '../../../core/dates.js';
import { now } from '../../../core/clock.js';
import { action } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import type { Output } from '../../output.js';
import type { FillResult, Unpriced } from '../../../prices/fill.js';

/** The human form of a fill: one line on stdout (stderr beside another command's table), each reason rows stayed unpriced on stderr. */
export function printFill(out: Output, source: string, r: FillResult, unpriced: Unpriced[], aside = false): void {
  (aside ? out.notice.bind(out) : out.line.bind(out))(`priced ${r.priced} row${r.priced === 1 ? '' : 's'}, ${r.unpriced} left without a value (${r.requests} requests to ${source}, ${r.cached} token-days from the cache)`);
  for (const u of unpriced) out.notice(`${u.rows} row${u.rows === 1 ? '' : 's'} unpriced: ${u.reason}, e.g. ${u.example}`);
}

export function registerPrices(program: Command): void {
  const prices = program.command('prices').description('token prices for rows without a fiat value, through a local cache (local only)');

  prices
    .command('fill')
    .description('value every row without a fiat value (fees included, spam left out) at its day\'s price')
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
        const { result, unpriced } = await fillPrices(local.engine, ws, api, range && { startTs: parseDay(range.start_date)!, endTs: parseDay(range.end_date)! + DAY_SECONDS });
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
      if (o.source !== undefined && !['import', 'defillama', 'coingecko'].includes(o.source)) {
        throw new TxaError('USAGE_ERROR', `--source must be one of import, defillama, coingecko, got '${o.source}'`, { field: 'source' });
      }
      const local = await ctx.local('prices list');
      const { listPrices } = await import('../../../store/prices.js');
      const { entryTime } = await import('../../../prices/points.js');
      const entries = listPrices(local.engine.db, { source: o.source as 'import' | undefined, token: o.token }).map((e) => ({
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
      else ctx.out.table(['DATE', 'TOKEN', 'SOURCE', 'PRICE', 'CURRENCY'], body.data.map((e) => [e.date, e.token, e.source, e.price ?? 'none', e.currency]), ['left', 'left', 'left', 'right', 'left']);
    }),
  );
}
