/**
 * `txa members accept TOKEN --email E`: joins a workspace by the invitation sent to E; prints the
 * member's new API key once (docs/server.md "Teams"). On a remote backend no key is needed: the
 * token is the credential, so `--base-url` alone names the server.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface AcceptOptions {
  token: string;
  email: string;
}

export async function run(ctx: Context, opts: AcceptOptions): Promise<void> {
  const accepted = await (await ctx.backend()).acceptInvitation(opts.token, { email: opts.email });
  if (ctx.out.json) {
    ctx.out.body({ success: true, data: accepted });
    return;
  }
  // The key alone on stdout, for a pipe (txa login --with-token); the rest is for the reader.
  ctx.out.line(accepted.api_key.key);
  ctx.out.notice(
    `Joined workspace ${accepted.member.workspace_id} as ${accepted.member.role} (member ${accepted.member.id}). Store the key now: it is not shown again.`,
  );
}

export function register(parent: Command): void {
  parent
    .command('accept')
    .description('accept an invitation with the address it was sent to; prints your API key once')
    .argument('<token>', 'the invitation token (txa_inv_…)')
    .requiredOption('--email <email>', 'the address the invitation was sent to')
    .action(action<{ email: string }>((ctx, flags, [token]) => run(ctx, { ...flags, token: token! })));
}
