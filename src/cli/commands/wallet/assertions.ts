/** `txa wallet assertions [ID]`: the balance assertions of the workspace, or of one wallet; local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printAssertions } from './assertions-table.js';

export interface AssertionsOptions {
  /** The wallet; every wallet when not given. */
  id?: string;
}

export async function run(ctx: Context, opts: AssertionsOptions): Promise<void> {
  const ws = ctx.workspace();
  const assertions = await (await ctx.local('wallet assertions')).assertions();
  const list = assertions.list(ws, opts.id);
  ctx.out.result(list, () => printAssertions(ctx.out, list));
}

export function register(parent: Command): void {
  parent
    .command('assertions')
    .description('balance assertions of the workspace, or of one wallet (local only)')
    .argument('[id]', 'wallet id')
    .action(action<Record<string, never>, [string | undefined]>((ctx, _flags, [id]) => run(ctx, { id })));
}
