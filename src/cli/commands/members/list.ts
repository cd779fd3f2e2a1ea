/** `txa members list`: the members of the workspace with their roles (docs/server.md "Teams"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';

export type ListOptions = PageFlags;

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = listPage(await (await ctx.backend()).listMembers(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      [{ header: 'ID' }, { header: 'E-MAIL', fit: 'end' }, { header: 'ROLE' }, { header: 'JOINED', fit: 'date', drop: 1 }],
      body.data.map((m) => [m.id, m.email ?? m.name ?? '', m.role, m.created_at]),
    );
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('members of the workspace and their roles')).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
