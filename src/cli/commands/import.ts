import type { Command } from 'commander';
import { TxaError } from '../../core/errors.js';
import { IMPORT_FORMATS } from '../../importers/types.js';
import type { ImportSummary } from '../../engine/imports.js';
import { action, choice } from '../run.js';

/** Bad or skipped rows listed on stderr before "… and N more". */
const LISTED = 20;

/** One stderr line per row (`  line 12, amount: not a number`), the first 20, then a count of the rest. */
function listRows(rows: { line: number; field?: string; reason: string }[]): void {
  for (const r of rows.slice(0, LISTED)) process.stderr.write(`  line ${r.line}${r.field ? `, ${r.field}` : ''}: ${r.reason}\n`);
  if (rows.length > LISTED) process.stderr.write(`  … and ${rows.length - LISTED} more\n`);
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import transactions from a file (local only; see docs/import.md)')
    .argument('<file>', 'txa JSON/NDJSON/CSV export, an Etherscan-family CSV export, or a Koinly or rotki CSV')
    .option('--wallet <id>', 'wallet the rows belong to (needed for explorer, Koinly and rotki files)')
    .option('--format <format>', `${IMPORT_FORMATS.join(', ')} (default auto: detected from the content)`, 'auto')
    .option('--dry-run', 'validate and count without writing anything')
    .action(
      action<{ wallet?: string; format: string; dryRun?: boolean }>(async (ctx, o, [file]) => {
        const format = choice('format', o.format, IMPORT_FORMATS)!;
        const ws = ctx.workspace();
        const local = await ctx.local('import');
        const { importFile } = await import('../../engine/imports.js');
        const skipped: { line: number; reason: string }[] = [];
        let summary: ImportSummary;
        try {
          summary = importFile(local.engine, ws, file!, { walletId: o.wallet, format, dryRun: o.dryRun, onSkipped: (s) => skipped.push(s) });
        } catch (err) {
          const errors = err instanceof TxaError ? (err.extra?.errors as { line: number; field: string; reason: string }[] | undefined) : undefined;
          if (!errors || ctx.out.json) throw err;
          ctx.out.error(err as TxaError);
          listRows(errors);
          process.exitCode = (err as TxaError).exitCode;
          return;
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
