/** `txa export download ID [--out PATH]`: the file of a completed, unexpired export. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { checkOutDir } from './request.js';
import { defaultFileName } from './view.js';
import { existsSync } from 'node:fs';

export interface DownloadOptions {
  id: string;
  /** Where to write it (default ./<export_id>.<ext>). */
  out?: string;
}

export async function run(ctx: Context, opts: DownloadOptions): Promise<void> {
  const ws = ctx.workspace();
  checkOutDir(opts.out);
  // An existing file is replaced (written beside it, then renamed): said on stderr, never silently (docs/cli.md, "Files").
  const replacing = opts.out !== undefined && existsSync(opts.out);
  const backend = await ctx.backend();
  const rec = await backend.getExport(ws, opts.id);
  const { path, bytes } = await backend.downloadExport(ws, opts.id, opts.out ?? defaultFileName(rec));
  ctx.out.result({ ...rec, file: path, bytes }, () => ctx.out.line(path));
  ctx.out.notice(replacing ? `wrote ${bytes} bytes, replacing the existing file` : `wrote ${bytes} bytes`);
}

export function register(parent: Command): void {
  parent
    .command('download')
    .description('fetch the file of a completed, unexpired export')
    .argument('<id>', 'export id')
    .option('-o, --out <path>', 'where to write it (default ./<export_id>.<ext>)')
    .action(action<Omit<DownloadOptions, 'id'>>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
