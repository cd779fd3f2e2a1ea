/** How export records look in human output. */
import { fileURLToPath } from 'node:url';
import type { Output } from '../../output.js';
import { TxaError } from '../../../core/errors.js';
import { EXPORT_EXTENSIONS, type ExportRecord } from '../../../core/types.js';

export function printExport(out: Output, e: ExportRecord, file?: string): void {
  const pairs: [string, string | number | null | undefined][] = [
    ['id', e.id],
    ['status', e.status],
    ['format', e.report_type ? `${e.format} (${e.report_type})` : e.format],
    ['delivery', e.delivery?.method],
    ['transactions', e.transaction_count],
    ['file_size', e.file_size],
    ['created_at', e.created_at],
    // Next to the user's own --out file the expiry reads as that file's: it is the stored copy's link (docs/exports.md).
    ['expires_at', file && e.expires_at ? `${e.expires_at} (the stored copy's link; the file stays)` : e.expires_at],
  ];
  if (e.progress !== undefined) pairs.push(['progress', `${e.progress}%`]);
  if (e.estimated_completion) pairs.push(['estimated_completion', e.estimated_completion]);
  // A local export without a server has a file:// URL: the path is what a user can open.
  const stored = e.download_url?.startsWith('file:') ? fileURLToPath(e.download_url) : undefined;
  if (e.download_url && !stored) pairs.push(['download_url', e.download_url]);
  if (e.error) pairs.push(['error', `${e.error.code}: ${e.error.message}`]);
  if (file ?? stored) pairs.push(['file', file ?? stored]);
  out.record(pairs);
}

export function printExports(out: Output, list: ExportRecord[]): void {
  out.table(
    [
      { header: 'ID' },
      { header: 'STATUS' },
      { header: 'FORMAT', fit: 'end' },
      { header: 'DELIVERY', fit: 'end', drop: 3 },
      { header: 'TXS', align: 'right', drop: 4 },
      { header: 'SIZE', align: 'right', drop: 5 },
      { header: 'CREATED', fit: 'date', drop: 2 },
      { header: 'EXPIRES', fit: 'date', drop: 1 },
    ],
    list.map((e) => [
      e.id,
      e.status,
      e.report_type ? `${e.format}/${e.report_type}` : e.format,
      e.delivery?.method,
      e.transaction_count,
      e.file_size,
      e.created_at,
      e.expires_at,
    ]),
  );
}

/** What a server may call an export if the CLI is to name a file after it: no path, no leading dot. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * `<export_id>.<ext>` in the current directory. The id and format come from the backend, which for
 * the remote CLI is any server: one that is not a plain name is refused before anything is written.
 */
export function defaultFileName(e: ExportRecord): string {
  const hint = 'Pass --out PATH to name the file yourself.';
  if (typeof e.id !== 'string' || !PLAIN_ID.test(e.id)) {
    throw new TxaError('INTERNAL_ERROR', `the server answered export id ${JSON.stringify(e.id)}, which is not a plain file name; nothing was written`, {
      field: 'id',
      hint,
    });
  }
  const ext = Object.hasOwn(EXPORT_EXTENSIONS, e.format) ? EXPORT_EXTENSIONS[e.format] : undefined;
  if (!ext)
    throw new TxaError('INTERNAL_ERROR', `the server answered export format ${JSON.stringify(e.format)}, which txa does not know; nothing was written`, {
      field: 'format',
      hint,
    });
  return `${e.id}.${ext}`;
}
