/** `txa workspace use ID`: the profile's default workspace; on the local ledger it must exist. */
import type { Command } from 'commander';
import { writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface UseOptions {
  id: string;
}

export async function run(ctx: Context, opts: UseOptions): Promise<void> {
  // With a remote backend the id is stored as given.
  if (!ctx.isRemote()) (await (await ctx.local('workspace use')).workspaces()).get(opts.id);
  await writeProfileValue(ctx.profileName, 'workspace', opts.id);
  ctx.out.result({ profile: ctx.profileName, workspace: opts.id }, () => ctx.out.notice(`Profile '${ctx.profileName}' now uses workspace ${opts.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('use')
    .description("make a workspace the profile's default")
    .argument('<id>', 'workspace id')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
