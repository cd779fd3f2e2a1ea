/** `txa wallet unassert ID`: a balance assertion removed; local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface UnassertOptions {
  /** The assertion (bal_…). */
  id: string;
}

export async function run(ctx: Context, opts: UnassertOptions): Promise<void> {
  const ws = ctx.workspace();
  const assertions = await (await ctx.local('wallet unassert')).assertions();
  const result = assertions.remove(ws, opts.id);
  ctx.out.result(result, () => ctx.out.notice(`Removed assertion ${result.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('unassert')
    .description('remove a balance assertion, by its id (local only)')
    .argument('<id>', 'assertion id (bal_…), from txa wallet assertions')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
