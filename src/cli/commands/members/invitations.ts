/** `txa members invitations`: the workspace's invitations with their state (pending, accepted, expired, revoked). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, type PageFlags, withPageFlags } from '../../list-pages.js';
import { action } from '../../run.js';

export type InvitationsOptions = PageFlags;

export async function run(ctx: Context, opts: InvitationsOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = listPage(await (await ctx.backend()).listInvitations(ws), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      [{ header: 'ID' }, { header: 'E-MAIL', fit: 'end' }, { header: 'ROLE' }, { header: 'STATUS' }, { header: 'EXPIRES', fit: 'date', drop: 1 }],
      body.data.map((i) => [i.id, i.email, i.role, i.status, i.expires_at]),
    );
}

export function register(parent: Command): void {
  withPageFlags(parent.command('invitations').description('invitations of the workspace and their state')).action(
    action<InvitationsOptions>((ctx, flags) => run(ctx, flags)),
  );
}
