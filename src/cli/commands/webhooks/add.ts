/** `txa webhooks add --url URL`: a subscription to the workspace's events; its signing secret printed once (docs/server.md "Webhooks"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, list } from '../../run.js';

export interface AddOptions {
  url: string;
  /** Comma-separated event types; all when not given. */
  events?: string;
}

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  const ws = ctx.workspace();
  const hook = await (await ctx.backend()).createWebhook(ws, { workspace_id: ws, url: opts.url, events: list(opts.events) });
  if (ctx.out.json) {
    ctx.out.body({ success: true, data: hook });
    return;
  }
  ctx.out.record([
    ['id', hook.id],
    ['url', hook.url],
    ['events', hook.events.join(', ')],
    ['secret', hook.secret],
  ]);
  ctx.out.notice('Store the secret now: it is not shown again. Verify deliveries with any Standard Webhooks library.');
}

export function register(parent: Command): void {
  parent
    .command('add')
    .description('subscribe a URL; prints the signing secret once')
    .requiredOption('--url <url>', 'http(s) URL to POST events to')
    .option('--events <list>', 'event types, comma-separated (default: all)')
    .action(action<AddOptions>((ctx, flags) => run(ctx, flags)));
}
