/** `txa lots remove-openings IMPORT_ID`: removes one import's opening lots (docs/lots.md "Opening lots"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface RemoveOpeningsOptions {
  importId: string;
}

export async function run(ctx: Context, opts: RemoveOpeningsOptions): Promise<void> {
  const ws = ctx.workspace();
  const res = await (await ctx.backend()).removeOpeningLots(ws, opts.importId);
  if (ctx.out.json) ctx.out.body({ success: true, data: res });
  else ctx.out.line(`${res.removed} opening ${res.removed === 1 ? 'lot' : 'lots'} of ${res.import_id} removed`);
}

export function register(parent: Command): void {
  parent
    .command('remove-openings')
    .description("remove one import's opening lots (its id: txa lots openings, or the import's answer)")
    .argument('<import_id>', 'the import (opn_…)')
    .action(action<Record<string, never>, [string]>((ctx, _flags, [importId]) => run(ctx, { importId: importId! })));
}
