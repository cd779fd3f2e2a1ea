import type { Command } from 'commander';
import { action } from '../../run.js';
import { registerCreate, checkOutDir } from './create.js';
import { defaultFileName, printExport, printExports } from './view.js';

export function registerExport(program: Command): void {
  const exp = program.command('export').description('exports of transactions as CSV, JSON or PDF, by download, e-mail or webhook');
  registerCreate(exp);

  exp
    .command('status')
    .description('status of an export (progress while it runs)')
    .argument('<id>', 'export id')
    .action(
      action(async (ctx, _o, [id]) => {
        const ws = ctx.workspace();
        const rec = await (await ctx.backend()).getExport(ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: rec });
        else printExport(ctx.out, rec);
      }),
    );

  exp
    .command('list')
    .description('exports of the workspace, newest first')
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'exports per page, 1 to 100 (default 50)')
    .action(
      action<{ page?: string; limit?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const res = await (await ctx.backend()).listExports(ws, { workspace_id: ws, page: o.page, limit: o.limit });
        if (ctx.out.json) ctx.out.body({ success: true, ...res });
        else printExports(ctx.out, res.data);
      }),
    );

  exp
    .command('cancel')
    .description('cancel a queued or processing export: it ends as failed (EXPORT_CANCELLED) and its partial file is removed')
    .argument('<id>', 'export id')
    .action(
      action(async (ctx, _o, [id]) => {
        const ws = ctx.workspace();
        const rec = await (await ctx.backend()).cancelExport(ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: rec });
        else printExport(ctx.out, rec);
      }),
    );

  exp
    .command('download')
    .description('fetch the file of a completed, unexpired export')
    .argument('<id>', 'export id')
    .option('--out <path>', 'where to write it (default ./<export_id>.<ext>)')
    .action(
      action<{ out?: string }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        checkOutDir(o.out);
        const backend = await ctx.backend();
        const rec = await backend.getExport(ws, id!);
        const { path, bytes } = await backend.downloadExport(ws, id!, o.out ?? defaultFileName(rec));
        if (ctx.out.json) ctx.out.body({ success: true, data: { ...rec, file: path, bytes } });
        else ctx.out.line(path);
        ctx.out.notice(`wrote ${bytes} bytes`);
      }),
    );
}
