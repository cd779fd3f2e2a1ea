/** `txa members revoke-invitation ID`: a pending invitation's link stops working. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface RevokeInvitationOptions {
  id: string;
}

export async function run(ctx: Context, opts: RevokeInvitationOptions): Promise<void> {
  const ws = ctx.workspace();
  const invitation = await (await ctx.backend()).revokeInvitation(ws, opts.id);
  ctx.out.result(invitation, () => ctx.out.notice(`Revoked the invitation of ${invitation.email} (${invitation.id}).`));
}

export function register(parent: Command): void {
  parent
    .command('revoke-invitation')
    .description('revoke a pending invitation')
    .argument('<id>', 'invitation id (from txa members invitations)')
    .action(action<Record<string, never>>((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
