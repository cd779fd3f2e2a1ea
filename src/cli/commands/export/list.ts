/** `txa export list`: the workspace's exports, newest first. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printExports } from './view.js';

export interface ListOptions {
  page?: string;
  limit?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const res = await (await ctx.backend()).listExports(ws, { workspace_id: ws, page: opts.page, limit: opts.limit });
  ctx.out.page(res, () => printExports(ctx.out, res.data));
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('exports of the workspace, newest first')
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'exports per page, 1 to 100 (default 50)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
