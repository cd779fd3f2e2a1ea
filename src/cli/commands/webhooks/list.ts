/** `txa webhooks list`: the workspace's subscriptions, whole or a page. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = listPage(await (await ctx.backend()).listWebhooks(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      [{ header: 'ID' }, { header: 'URL', fit: 'middle' }, { header: 'EVENTS', fit: 'end' }, { header: 'CREATED', fit: 'date', drop: 1 }],
      body.data.map((h) => [h.id, h.url, h.events.join(','), h.created_at]),
    );
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('subscriptions of the workspace')).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
