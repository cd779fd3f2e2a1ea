/** `txa workspace create NAME`: a workspace of the local ledger, the profile's default when it has none. */
import type { Command } from 'commander';
import { TIERS } from '../../../core/types.js';
import { JURISDICTIONS } from '../../../core/jurisdictions.js';
import { writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWorkspaces } from '../../views.js';
import { rateLimitOf } from './rate-limit-flag.js';

export interface CreateOptions {
  name: string;
  tier: string;
  currency: string;
  jurisdiction?: string;
  rateLimit?: string;
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const workspaces = await (await ctx.local('workspace create')).workspaces();
  // The engine checks every value, as for `workspace update`: INVALID_FIELD with its field.
  const ws = workspaces.create({
    name: opts.name,
    tier: opts.tier,
    currency: opts.currency,
    jurisdiction: opts.jurisdiction,
    rate_limit: rateLimitOf(opts.rateLimit),
  });
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
}

export function register(parent: Command): void {
  parent
    .command('create')
    .description("create a workspace (local only); it becomes the profile's default when the profile has none")
    .argument('<name>', 'workspace name')
    .option('--tier <tier>', TIERS.join(', '), 'free')
    .option('--currency <code>', 'base currency (three letters)', 'USD')
    .option('--jurisdiction <code>', `tax rules, tax year and report currency: ${JURISDICTIONS.join(', ')} (default us)`)
    .option('--rate-limit <n>', "an enterprise workspace's API requests per hour")
    .action(action<Omit<CreateOptions, 'name'>>((ctx, flags, [name]) => run(ctx, { ...flags, name: name! })));
}
