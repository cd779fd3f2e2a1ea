/** `txa wallet assert ID`: a wallet held exactly this balance of a token at the end of a UTC day (docs/check.md "Balance assertions"); local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printAssertions } from './assertions-table.js';

export interface AssertOptions {
  /** The wallet. */
  id: string;
  token: string;
  balance: string;
  at: string;
}

export async function run(ctx: Context, opts: AssertOptions): Promise<void> {
  const ws = ctx.workspace();
  const assertions = await (await ctx.local('wallet assert')).assertions();
  const a = assertions.assert(ws, opts.id, { token: opts.token, balance: opts.balance, at: opts.at });
  ctx.out.result(a, () => printAssertions(ctx.out, [a]));
}

export function register(parent: Command): void {
  parent
    .command('assert')
    .description('record that a wallet held exactly AMOUNT of a token at the end of a UTC day; txa check verifies it (local only)')
    .argument('<id>', 'wallet id')
    .requiredOption('--token <symbol>', "the token's symbol (any case), or its contract address when two tokens share it")
    .requiredOption('--balance <amount>', 'the exact balance in token units, e.g. 1.25')
    .requiredOption('--at <YYYY-MM-DD>', 'the day, UTC: the balance at its end')
    .action(action<Omit<AssertOptions, 'id'>>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
