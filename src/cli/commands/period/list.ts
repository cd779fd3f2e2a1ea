/** `txa period list`: every closed through-date, its state and who closed or reopened it (docs/periods.md). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export type ListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const periods = await (await ctx.backend()).listPeriods(ws);
  ctx.out.result(periods, () => {
    if (periods.length === 0) return ctx.out.notice('no closed periods (txa period close DATE closes the books through DATE)');
    ctx.out.table(
      [{ header: 'THROUGH' }, { header: 'STATUS' }, { header: 'CLOSED', fit: 'date' }, { header: 'BY' }, { header: 'NOTE OR REASON', fit: 'end' }],
      periods.map((p) => [
        p.through,
        p.status,
        p.status === 'closed' ? p.closed_at : p.reopened_at!,
        p.status === 'closed' ? p.closed_by : p.reopened_by!,
        (p.status === 'closed' ? p.note : p.reason) ?? '',
      ]),
    );
  });
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('closed periods, each with its state (closed or reopened) and history (--json)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
