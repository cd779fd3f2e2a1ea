/** `txa members update ID --role R`: a member's new role; the last admin stays one (docs/server.md "Teams"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { ROLE_HELP, roleFlag } from './role-flag.js';

export interface UpdateOptions {
  id: string;
  role: string;
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  const role = roleFlag(opts.role);
  const ws = ctx.workspace();
  const member = await (await ctx.backend()).updateMember(ws, opts.id, { role });
  ctx.out.result(member, () => ctx.out.notice(`Member ${member.id} (${member.email ?? member.name}) is now ${member.role}.`));
}

export function register(parent: Command): void {
  parent
    .command('update')
    .description("change a member's role")
    .argument('<id>', 'member id (from txa members list)')
    .requiredOption('--role <role>', ROLE_HELP)
    .action(action<{ role: string }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
