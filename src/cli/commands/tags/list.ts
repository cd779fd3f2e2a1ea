/** `txa tags list`: the workspace's tags, by name, whole or a page. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';
import { printTags } from '../../views.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = listPage(await (await ctx.backend()).listTags(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else printTags(ctx.out, body.data);
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('tags of the workspace, by name')).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
