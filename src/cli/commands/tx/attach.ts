import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';

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

export function registerAttach(parent: Command): void {
  parent
    .command('attach')
    .description('attach a file (receipt, invoice) to a transaction; at most 10 MB, 10 per transaction')
    .argument('<id>', 'transaction id')
    .argument('<file>', 'path of the file')
    .action(
      action(async (ctx, _opts, [id, file]) => {
        const ws = ctx.workspace();
        let data: Buffer;
        try {
          data = await readFile(file!);
        } catch (err) {
          throw new TxaError('USAGE_ERROR', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { field: 'file' });
        }
        const attachment = await (await ctx.backend()).attachFile(ws, id!, {
          file_name: basename(file!),
          content_type: TYPES[extname(file!).toLowerCase()] ?? 'application/octet-stream',
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
      }),
    );
}
