/** `txa lots import FILE`: opening lots carried in from records kept elsewhere (docs/lots.md "Opening lots"). */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printOpenings } from '../../lot-views.js';
import { TxaError } from '../../../core/errors.js';
import { unreadableFile } from '../../../core/errno.js';

export interface ImportOptions {
  file: string;
  allowLate?: boolean;
  dryRun?: boolean;
}

/** An opening file is a list of positions; more than this is no such file. */
const MAX_BYTES = 64 * 1024 * 1024;

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const ws = ctx.workspace();
  let csv: string;
  try {
    csv = readFileSync(opts.file, 'utf8');
  } catch (err) {
    throw unreadableFile(opts.file, err, 'file');
  }
  if (csv.length > MAX_BYTES) throw new TxaError('INVALID_FIELD', `${opts.file} is larger than 64 MB`, { field: 'file' });
  const res = await (await ctx.backend()).importOpeningLots(ws, {
    csv,
    file_name: basename(opts.file),
    ...(opts.allowLate && { allow_late: true }),
    ...(opts.dryRun && { dry_run: true }),
  });
  if (ctx.out.json) {
    ctx.out.body({ success: true, data: res });
    return;
  }
  printOpenings(ctx.out, res.added);
  const what = `${res.added.length} opening ${res.added.length === 1 ? 'lot' : 'lots'}`;
  const skipped = res.skipped.length > 0 ? `; ${res.skipped.length} already held, skipped` : '';
  ctx.out.line(res.dry_run ? `dry run: ${what} would be added${skipped}` : `${what} added (import ${res.import_id})${skipped}`);
}

export function register(parent: Command): void {
  parent
    .command('import')
    .description("add opening lots from a CSV wallet,asset,quantity,date_acquired,cost_basis,note (a previous tool's closing positions)")
    .argument('<file>', 'the CSV; wallet a label or id, asset a symbol or contract address, date_acquired YYYY-MM-DD, cost_basis in the workspace currency')
    .option('--allow-late', "accept a lot dated after its wallet's first row")
    .option('--dry-run', 'check every line and print the lots; write nothing')
    .action(action<Omit<ImportOptions, 'file'>, [string]>((ctx, flags, [file]) => run(ctx, { ...flags, file: file! })));
}
