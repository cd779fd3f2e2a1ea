/** `txa events list`: the event log, newest first, with each event's webhook deliveries. */
import type { Command } from 'commander';
import type { EventRecord } from '../../../core/types.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';
import { action } from '../../run.js';

export interface ListOptions {
  type?: string;
  page?: string;
  limit?: string;
}

/** The id of what the event is about: a tag, a transaction, a wallet or an export. */
function subjectOf(e: EventRecord): string {
  const p = e.payload as { tag?: { id: string }; transaction?: { id: string }; wallet?: { id: string }; export_id?: string };
  return p.tag?.id ?? p.transaction?.id ?? p.wallet?.id ?? p.export_id ?? '';
}

function printEvents(out: Output, events: EventRecord[]): void {
  out.table(
    [
      { header: 'CREATED', fit: 'date' },
      { header: 'ID' },
      { header: 'TYPE', fit: 'end' },
      { header: 'SUBJECT', drop: 2 },
      { header: 'DELIVERIES', fit: 'end', drop: 1 },
    ],
    events.map((e) => {
      const deliveries = e.deliveries.map((d) => `${d.status} (${d.attempts.length} tries)`).join(', ');
      return [e.created_at, e.id, e.type, subjectOf(e), deliveries];
    }),
  );
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const res = await (await ctx.backend()).listEvents(ws, { workspace_id: ws, type: opts.type, page: opts.page, limit: opts.limit });
  ctx.out.page(res, () => printEvents(ctx.out, res.data));
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('emitted events, newest first, with their delivery state')
    .option('--type <event>', 'only this event type, e.g. tag.created')
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'events per page, 1 to 200 (default 50)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
