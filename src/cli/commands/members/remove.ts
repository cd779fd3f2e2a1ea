/** `txa members remove ID`: the member leaves and its keys stop working at once, after a confirmation (docs/server.md "Teams"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, confirmOrCancel, requireAnswerable } from '../../run.js';

export interface RemoveOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: RemoveOptions): Promise<void> {
  requireAnswerable(opts.yes);
  const ws = ctx.workspace();
  if (!(await confirmOrCancel(ctx.out, opts.yes, `Remove member ${opts.id}? Their API keys stop working at once.`))) return;
  const removed = await (await ctx.backend()).removeMember(ws, opts.id);
  ctx.out.result(removed, () => ctx.out.notice(`Removed member ${removed.id} (${removed.email ?? removed.name}); ${removed.revoked_keys} key(s) revoked.`));
}

export function register(parent: Command): void {
  parent
    .command('remove')
    .description('remove a member and revoke its API keys')
    .argument('<id>', 'member id (from txa members list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
