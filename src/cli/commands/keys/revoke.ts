/** `txa keys revoke ID`: a key refused from now on, after a confirmation; local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, confirmOrCancel, requireAnswerable } from '../../run.js';

export interface RevokeOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: RevokeOptions): Promise<void> {
  requireAnswerable(opts.yes);
  const ws = ctx.workspace();
  const keys = await (await ctx.local('keys revoke')).keys();
  if (!(await confirmOrCancel(ctx.out, opts.yes, `Revoke API key ${opts.id}? Clients using it stop working at once.`))) return;
  const record = keys.revoke(ws, opts.id);
  ctx.out.result(record, () => ctx.out.notice(`Revoked key ${record.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('revoke')
    .description('revoke a key; requests with it fail at once')
    .argument('<id>', 'key id (from txa keys list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
