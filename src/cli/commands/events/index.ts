import type { Command } from 'commander';
import { action } from '../../run.js';

export function registerEvents(program: Command): void {
  const events = program.command('events').description('the event log and its webhook deliveries');
  events
    .command('list')
    .description('emitted events, newest first, with their delivery state')
    .option('--type <event>', 'only this event type, e.g. tag.created')
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'events per page, 1 to 200 (default 50)')
    .action(
      action<{ type?: string; page?: string; limit?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const res = await (await ctx.backend()).listEvents(ws, { workspace_id: ws, type: o.type, page: o.page, limit: o.limit });
        if (ctx.out.json) {
          ctx.out.body({ success: true, ...res });
          return;
        }
        ctx.out.table(
          [
            { header: 'CREATED', fit: 'date' },
            { header: 'ID' },
            { header: 'TYPE', fit: 'end' },
            { header: 'SUBJECT', drop: 2 },
            { header: 'DELIVERIES', fit: 'end', drop: 1 },
          ],
          res.data.map((e) => {
            const p = e.payload as { tag?: { id: string }; transaction?: { id: string }; wallet?: { id: string }; export_id?: string };
            const subject = p.tag?.id ?? p.transaction?.id ?? p.wallet?.id ?? p.export_id ?? '';
            const deliveries = e.deliveries.map((d) => `${d.status} (${d.attempts.length} tries)`).join(', ');
            return [e.created_at, e.id, e.type, subject, deliveries];
          }),
        );
      }),
    );
}
