/** `txa transfers list`: matched own transfers, then the proposed ones (docs/accounting.md "Own transfers"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printTransfers } from '../../transfer-views.js';

export interface ListOptions {
  status?: string;
  page?: string;
  limit?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  // Passed as given: the backend answers a bad value with INVALID_PARAMETERS (status), as the API does.
  const page = await (await ctx.backend()).listTransfers(ws, { status: opts.status, page: opts.page, limit: opts.limit });
  ctx.out.page(page, () => printTransfers(ctx.out, page));
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('matched own transfers, then the proposed ones (candidates) to confirm with `txa transfers match`')
    .option('--status <status>', 'matched or candidate (default: both)')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'transfers per page, 1 to 200 (default 50)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
