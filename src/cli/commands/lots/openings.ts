/** `txa lots openings`: the opening lots, by day (docs/lots.md "Opening lots"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printOpenings } from '../../lot-views.js';

export type OpeningsOptions = Record<string, never>;

export async function run(ctx: Context, _opts: OpeningsOptions): Promise<void> {
  const ws = ctx.workspace();
  const lots = await (await ctx.backend()).listOpeningLots(ws);
  if (ctx.out.json) ctx.out.body({ success: true, data: lots });
  else printOpenings(ctx.out, lots);
}

export function register(parent: Command): void {
  parent
    .command('openings')
    .description('the opening lots imported with txa lots import, by day')
    .action(action<OpeningsOptions>((ctx, flags) => run(ctx, flags)));
}
