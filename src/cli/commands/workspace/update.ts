/** `txa workspace update ID`: a workspace's name, tier, base currency or rate limit; local only. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { TIERS } from '../../../core/types.js';
import { JURISDICTIONS } from '../../../core/jurisdictions.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWorkspaces } from '../../views.js';
import { rateLimitOf } from './rate-limit-flag.js';

export interface UpdateOptions {
  id: string;
  name?: string;
  tier?: string;
  currency?: string;
  jurisdiction?: string;
  rateLimit?: string;
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  if (opts.name === undefined && opts.tier === undefined && opts.currency === undefined && opts.jurisdiction === undefined && opts.rateLimit === undefined) {
    throw new TxaError('USAGE_ERROR', 'nothing to change: pass --name, --tier, --currency, --jurisdiction or --rate-limit', { field: 'name' });
  }
  const workspaces = await (await ctx.local('workspace update')).workspaces();
  const ws = workspaces.update(opts.id, {
    name: opts.name,
    tier: opts.tier,
    currency: opts.currency,
    jurisdiction: opts.jurisdiction,
    rate_limit: rateLimitOf(opts.rateLimit),
  });
  ctx.out.result(ws, () => printWorkspaces(ctx.out, [ws]));
}

export function register(parent: Command): void {
  parent
    .command('update')
    .description('change a workspace: name, tier, base currency, jurisdiction, rate limit (local only)')
    .argument('<id>', 'workspace id')
    .option('--name <name>', 'new name, 1 to 100 characters')
    .option('--tier <tier>', `${TIERS.join(', ')} (leaving enterprise drops the rate limit)`)
    .option('--currency <code>', 'base currency (three letters); only while the workspace holds no transactions or rates')
    .option('--jurisdiction <code>', `tax rules, tax year and report currency: ${JURISDICTIONS.join(', ')}`)
    .option('--rate-limit <n>', "an enterprise workspace's API requests per hour")
    .action(action<Omit<UpdateOptions, 'id'>>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
