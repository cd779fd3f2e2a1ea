import type { Command } from 'commander';
import { reportBadRows } from '../../bad-rows.js';
import { action } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';

export function registerRates(program: Command): void {
  const rates = program.command('rates').description('daily FX rates from the base currency, for the export option --currency (local only)');

  rates
    .command('import')
    .description('import a CSV of date,currency,rate (all rows or none)')
    .argument('<file>', 'CSV file')
    .action(
      action(async (ctx, _o, [file]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('rates import');
        const { importRates } = await import('../../../engine/rates.js');
        try {
          const res = await importRates(local.engine, ws, file!);
          if (ctx.out.json) ctx.out.body({ success: true, data: res });
          else ctx.out.line(`imported ${res.imported} rates`);
        } catch (err) {
          if (reportBadRows(ctx.out, err)) return;
          throw err;
        }
      }),
    );

  withPageFlags(rates.command('list').description('imported rates, by currency and day').option('--currency <code>', 'only this currency')).action(
    action<PageFlags & { currency?: string }>(async (ctx, o) => {
      const ws = ctx.workspace();
      const local = await ctx.local('rates list');
      const { listRates } = await import('../../../engine/rates.js');
      const body = listPage(listRates(local.engine, ws, o.currency), o);
      if (ctx.out.json) ctx.out.body(body);
      else
        ctx.out.table(
          ['DATE', 'CURRENCY', 'RATE'],
          body.data.map((r) => [r.date, r.currency, r.rate]),
          ['left', 'left', 'right'],
        );
    }),
  );
}
