/** `txa tx attach ID FILE`: a receipt or invoice on a transaction, with its content type by extension. */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { unreadableFile } from '../../../core/errno.js';

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

export interface AttachOptions {
  id: string;
  file: string;
}

/** An unreadable file is IO_ERROR naming `file`, before any request (docs/cli.md "Files"). */
async function readUpload(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw unreadableFile(file, err, 'file');
  }
}

export async function run(ctx: Context, { id, file }: AttachOptions): Promise<void> {
  const ws = ctx.workspace();
  const data = await readUpload(file);
  const attachment = await (await ctx.backend()).attachFile(ws, id, {
    file_name: basename(file),
    content_type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    data,
  });
  if (ctx.out.json) ctx.out.body({ success: true, data: attachment });
  else
    ctx.out.record([
      ['id', attachment.id],
      ['file_name', attachment.file_name],
      ['file_size', attachment.file_size],
      ['file_url', attachment.file_url],
      ['uploaded_at', attachment.uploaded_at],
    ]);
}

export function register(parent: Command): void {
  parent
    .command('attach')
    .description('attach a file (receipt, invoice) to a transaction; at most 10 MB, 10 per transaction')
    .argument('<id>', 'transaction id')
    .argument('<file>', 'path of the file')
    .action(action((ctx, _flags, [id, file]) => run(ctx, { id: id!, file: file! })));
}
