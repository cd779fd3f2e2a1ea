import type { Command } from 'commander';
import { TIERS } from '../../../core/types.js';
import { TxaError } from '../../../core/errors.js';
import { action, choice } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import { printWorkspaces } from '../../views.js';
import { writeProfileValue } from '../../config.js';

// Three short verbs, kept together as gh keeps small nouns.
export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description('workspaces of the local ledger');

  workspace
    .command('create')
    .description('create a workspace (local only)')
    .argument('<name>', 'workspace name')
    .option('--tier <tier>', TIERS.join(', '), 'free')
    .option('--currency <code>', 'base currency (three letters)', 'USD')
    .option('--rate-limit <n>', "an enterprise workspace's API requests per hour")
    .action(
      action<{ tier: string; currency: string; rateLimit?: string }>(async (ctx, o, [name]) => {
        const tier = choice('tier', o.tier, TIERS);
        let rateLimit: number | undefined;
        if (o.rateLimit !== undefined) {
          rateLimit = /^\d+$/.test(o.rateLimit) ? Number(o.rateLimit) : NaN;
          if (!Number.isSafeInteger(rateLimit) || rateLimit < 1) throw new TxaError('USAGE_ERROR', `--rate-limit must be a whole number of at least 1, got '${o.rateLimit}'`, { field: 'rate-limit' });
        }
        const local = await ctx.local('workspace create');
        const { createWorkspace } = await import('../../../engine/workspaces.js');
        const ws = createWorkspace(local.engine, { name: name!, tier, currency: o.currency, rate_limit: rateLimit });
        if (ctx.out.json) ctx.out.body({ success: true, data: ws });
        else {
          printWorkspaces(ctx.out, [ws]);
          ctx.out.notice(`Make it the default with: txa workspace use ${ws.id}`);
        }
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
