/** `txa workspace list`: the workspaces of the local ledger, whole or a page. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';
import { printWorkspaces } from '../../views.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const workspaces = await (await ctx.local('workspace list')).workspaces();
  const body = listPage(workspaces.list(), opts);
  if (ctx.out.json) ctx.out.body(body);
  else printWorkspaces(ctx.out, body.data);
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('workspaces of the local ledger')).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
