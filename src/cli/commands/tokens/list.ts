/** `txa tokens list`: the tokens the user marked, spam or not. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export type ListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const marks = (await (await ctx.local('tokens list')).tokens()).list(ws);
  if (ctx.out.json) ctx.out.body({ success: true, data: marks });
  else
    ctx.out.table(
      [{ header: 'CHAIN' }, { header: 'ADDRESS', fit: 'middle' }, { header: 'SPAM' }, { header: 'MARKED', fit: 'date' }],
      marks.map((m) => [m.chain, m.address, m.spam ? 'yes' : 'no', m.marked_at]),
    );
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('the tokens you marked, spam or not')
    .action(action((ctx) => run(ctx, {})));
}
