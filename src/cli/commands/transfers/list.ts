import type { Command } from 'commander';
import { action } from '../../run.js';
import { printTransfers } from '../../transfer-views.js';

export function registerList(parent: Command): void {
  parent
    .command('list')
    .description('matched own transfers, then the proposed ones (candidates) to confirm with `txa transfers match`')
    .option('--status <status>', 'matched or candidate (default: both)')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'transfers per page, 1 to 200 (default 50)')
    .action(
      action<{ status?: string; page?: string; limit?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        // Passed as given: the backend answers a bad value with INVALID_PARAMETERS (status), as the API does.
        const page = await (await ctx.backend()).listTransfers(ws, { status: o.status, page: o.page, limit: o.limit });
        if (ctx.out.json) ctx.out.body({ success: true, ...page });
        else printTransfers(ctx.out, page);
      }),
    );
}
