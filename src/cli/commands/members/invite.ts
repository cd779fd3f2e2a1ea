/**
 * `txa members invite EMAIL --role R`: an invitation valid 7 days, e-mailed through the SMTP
 * server exports use (docs/server.md "Teams"). Its token is printed once, for handing over
 * another way when no e-mail went out.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { ROLE_HELP, roleFlag } from './role-flag.js';

export interface InviteOptions {
  email: string;
  role: string;
}

export async function run(ctx: Context, opts: InviteOptions): Promise<void> {
  const role = roleFlag(opts.role);
  const ws = ctx.workspace();
  const sent = await (await ctx.backend()).inviteMember(ws, { email: opts.email, role });
  if (ctx.out.json) {
    ctx.out.body({ success: true, data: sent });
    return;
  }
  ctx.out.record([
    ['id', sent.id],
    ['email', sent.email],
    ['role', sent.role],
    ['expires', sent.expires_at],
    ['token', sent.token],
  ]);
  if (sent.email_sent) ctx.out.notice(`Invited ${sent.email}; the invitation is e-mailed. The token is not shown again.`);
  else {
    ctx.out.warn(`the invitation was not e-mailed: ${sent.email_error}`);
    ctx.out.notice(`Hand the token to ${sent.email}, who accepts with: txa members accept TOKEN --email ${sent.email}`);
  }
}

export function register(parent: Command): void {
  parent
    .command('invite')
    .description('invite an e-mail address with a role; the invitation is e-mailed and valid 7 days')
    .argument('<email>', 'the address to invite')
    .requiredOption('--role <role>', ROLE_HELP)
    .action(action<{ role: string }>((ctx, flags, [email]) => run(ctx, { ...flags, email: email! })));
}
