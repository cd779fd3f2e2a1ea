import type { Command } from 'commander';
import { TIERS } from '../../../core/types.js';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import { printWorkspaces } from '../../views.js';
import { writeProfileValue } from '../../config.js';

/** `--rate-limit` as a number; anything but digits is NaN, which the engine refuses as INVALID_FIELD. */
function rateLimitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : NaN;
}

// Four short verbs, kept together as gh keeps small nouns.
export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description('workspaces of the local ledger');

  workspace
    .command('create')
    .description("create a workspace (local only); it becomes the profile's default when the profile has none")
    .argument('<name>', 'workspace name')
    .option('--tier <tier>', TIERS.join(', '), 'free')
    .option('--currency <code>', 'base currency (three letters)', 'USD')
    .option('--rate-limit <n>', "an enterprise workspace's API requests per hour")
    .action(
      action<{ tier: string; currency: string; rateLimit?: string }>(async (ctx, o, [name]) => {
        const local = await ctx.local('workspace create');
        const { createWorkspace } = await import('../../../engine/workspaces.js');
        // The engine checks every value, as for `workspace update`: INVALID_FIELD with its field.
        const ws = createWorkspace(local.engine, { name: name!, tier: o.tier, currency: o.currency, rate_limit: rateLimitOf(o.rateLimit) });
        // A profile without a workspace gets this one, so the next command needs no -w.
        const adopted = !ctx.profile.workspace;
        if (adopted) await writeProfileValue(ctx.profileName, 'workspace', ws.id);
        if (ctx.out.json) ctx.out.body({ success: true, data: ws });
        else {
          printWorkspaces(ctx.out, [ws]);
          ctx.out.notice(
            adopted ? `Profile '${ctx.profileName}' had no default workspace; it now uses ${ws.id}.` : `Make it the default with: txa workspace use ${ws.id}`,
          );
        }
      }),
    );

  workspace
    .command('update')
    .description('change a workspace: name, tier, base currency, rate limit (local only)')
    .argument('<id>', 'workspace id')
    .option('--name <name>', 'new name, 1 to 100 characters')
    .option('--tier <tier>', `${TIERS.join(', ')} (leaving enterprise drops the rate limit)`)
    .option('--currency <code>', 'base currency (three letters); only while the workspace holds no transactions or rates')
    .option('--rate-limit <n>', "an enterprise workspace's API requests per hour")
    .action(
      action<{ name?: string; tier?: string; currency?: string; rateLimit?: string }>(async (ctx, o, [id]) => {
        if (o.name === undefined && o.tier === undefined && o.currency === undefined && o.rateLimit === undefined) {
          throw new TxaError('USAGE_ERROR', 'nothing to change: pass --name, --tier, --currency or --rate-limit', { field: 'name' });
        }
        const local = await ctx.local('workspace update');
        const { updateWorkspace } = await import('../../../engine/workspaces.js');
        const ws = updateWorkspace(local.engine, id!, { name: o.name, tier: o.tier, currency: o.currency, rate_limit: rateLimitOf(o.rateLimit) });
        if (ctx.out.json) ctx.out.body({ success: true, data: ws });
        else printWorkspaces(ctx.out, [ws]);
      }),
    );

  withPageFlags(workspace.command('list').description('workspaces of the local ledger')).action(
    action<PageFlags>(async (ctx, o) => {
      const local = await ctx.local('workspace list');
      const { allWorkspaces } = await import('../../../engine/workspaces.js');
      const body = listPage(allWorkspaces(local.engine), o);
      if (ctx.out.json) ctx.out.body(body);
      else printWorkspaces(ctx.out, body.data);
    }),
  );

  workspace
    .command('use')
    .description("make a workspace the profile's default")
    .argument('<id>', 'workspace id')
    .action(
      action(async (ctx, _o, [id]) => {
        if (!ctx.isRemote()) (await ctx.local('workspace use')).engine.workspace(id!);
        await writeProfileValue(ctx.profileName, 'workspace', id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: { profile: ctx.profileName, workspace: id } });
        else ctx.out.notice(`Profile '${ctx.profileName}' now uses workspace ${id}.`);
      }),
    );
}
