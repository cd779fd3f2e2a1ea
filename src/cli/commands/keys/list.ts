/** `txa keys list`: the workspace's keys, by prefix only; local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const keys = await (await ctx.local('keys list')).keys();
  const body = listPage(keys.list(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      [
        { header: 'ID' },
        { header: 'NAME', fit: 'end' },
        { header: 'ACCESS' },
        { header: 'KEY' },
        { header: 'CREATED', fit: 'date', drop: 2 },
        { header: 'REVOKED', fit: 'date', drop: 1 },
        { header: 'MEMBER', drop: 3 },
      ],
      body.data.map((k) => [k.id, k.name, k.access, `${k.prefix}…`, k.created_at, k.revoked_at, k.member_id]),
    );
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('keys of the workspace (never the keys themselves)')).action(
    action<ListOptions>((ctx, flags) => run(ctx, flags)),
  );
}
