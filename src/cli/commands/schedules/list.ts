/** `txa schedules list`: the workspace's scheduled reports, each with its next run and its last. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';
import { printSchedules } from './view.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = listPage(await (await ctx.backend()).listSchedules(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else printSchedules(ctx.out, body.data);
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('scheduled reports of the workspace, with their next and last runs')).action(
    action<ListOptions>((ctx, flags) => run(ctx, flags)),
  );
}
