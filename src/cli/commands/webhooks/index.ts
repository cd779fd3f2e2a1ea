import type { Command } from 'commander';
import { action, confirm, list } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions to the events of the workspace');

  webhooks
    .command('add')
    .description('subscribe a URL; prints the signing secret once')
    .requiredOption('--url <url>', 'http(s) URL to POST events to')
    .option('--events <list>', 'event types, comma-separated (default: all)')
    .action(
      action<{ url: string; events?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const hook = await (await ctx.backend()).createWebhook(ws, { workspace_id: ws, url: o.url, events: list(o.events) });
        if (ctx.out.json) ctx.out.body({ success: true, data: hook });
        else {
          ctx.out.record([
            ['id', hook.id],
            ['url', hook.url],
            ['events', hook.events.join(', ')],
            ['secret', hook.secret],
          ]);
          ctx.out.notice('Store the secret now: it is not shown again. Verify deliveries with any Standard Webhooks library.');
        }
      }),
    );

  withPageFlags(webhooks.command('list').description('subscriptions of the workspace')).action(
    action<PageFlags>(async (ctx, o) => {
      const ws = ctx.workspace();
      const body = listPage(await (await ctx.backend()).listWebhooks(ws), o);
      if (ctx.out.json) ctx.out.body(body);
      else
        ctx.out.table(
          [{ header: 'ID' }, { header: 'URL', fit: 'middle' }, { header: 'EVENTS', fit: 'end' }, { header: 'CREATED', fit: 'date', drop: 1 }],
          body.data.map((h) => [h.id, h.url, h.events.join(','), h.created_at]),
        );
    }),
  );

  webhooks
    .command('remove')
    .description('remove a subscription; its pending deliveries are dropped')
    .argument('<id>', 'webhook id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action<{ yes?: boolean }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        if (!(await confirm(o.yes, `Remove webhook ${id}?`))) {
          ctx.out.notice('Cancelled.');
          process.exitCode = 1;
          return;
        }
        const result = await (await ctx.backend()).deleteWebhook(ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else ctx.out.notice(`Removed webhook ${result.id}.`);
      }),
    );
}
