import type { Command } from 'commander';
import { TxaError } from '../../core/errors.js';
import { IMPORT_FORMATS } from '../../importers/types.js';
import type { ImportSummary } from '../../engine/imports.js';
import { listRows, reportBadRows } from '../bad-rows.js';
import { action, choice } from '../run.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import transactions from a file (local only; see docs/import.md)')
    .argument('<file>', 'txa JSON/NDJSON/CSV export, an Etherscan-family CSV export, or a Koinly or rotki CSV')
    .option('--wallet <id>', 'wallet the rows belong to (needed for explorer, Koinly and rotki files)')
    .option('--format <format>', `${IMPORT_FORMATS.join(', ')} (default auto: detected from the content)`, 'auto')
    .option(
      '--token-address <0x…>',
      "the token of a token-tracker export (one token's transfers, all holders), which names it only in the download's file name",
    )
    .option('--dry-run', 'validate and count without writing anything')
    .addHelpText(
      'after',
      `
Explorer CSVs: a normal-transactions file without Txhash, From or To (a column subset) imports
with a synthetic hash per row and the wallet's side read from Value_IN/Value_OUT. A token-tracker
file whose name lost the token's 0x address needs --token-address. Details: docs/import.md.`,
    )
    .action(
      action<{ wallet?: string; format: string; tokenAddress?: string; dryRun?: boolean }>(async (ctx, o, [file]) => {
        const format = choice('format', o.format, IMPORT_FORMATS)!;
        const { isAddress } = await import('../../importers/fields.js');
        if (o.tokenAddress !== undefined && !isAddress(o.tokenAddress)) {
          throw new TxaError('USAGE_ERROR', `--token-address must be a 0x address of 40 hex digits, got '${o.tokenAddress}'`, { field: 'token-address' });
        }
        const ws = ctx.workspace();
        const local = await ctx.local('import');
        const { importFile } = await import('../../engine/imports.js');
        const skipped: { line: number; reason: string }[] = [];
        let summary: ImportSummary;
        try {
          summary = importFile(local.engine, ws, file!, {
            walletId: o.wallet,
            format,
            tokenAddress: o.tokenAddress,
            dryRun: o.dryRun,
            onSkipped: (s) => skipped.push(s),
          });
        } catch (err) {
          if (reportBadRows(ctx.out, err)) return;
          throw err;
        }
        if (ctx.out.json) {
          ctx.out.body({ success: true, data: summary });
          return;
        }
        ctx.out.record([
          ['format', summary.format],
          ['imported', summary.imported],
          ['duplicates skipped', summary.duplicates],
          ['rows skipped', summary.skipped],
          ...summary.wallets.map((w): [string, string] => [`wallet ${w.id}`, `${w.label}: ${w.imported} imported`]),
        ]);
        if (skipped.length > 0) {
          ctx.out.notice(`${skipped.length} row${skipped.length === 1 ? ' was' : 's were'} skipped:`);
          listRows(skipped);
        }
        if (summary.dry_run) ctx.out.notice('dry run: nothing was written');
      }),
    );
}
