/** How export records look in human output. */
import type { Output } from '../../output.js';
import type { ExportRecord } from '../../../core/types.js';

export function printExport(out: Output, e: ExportRecord, file?: string): void {
  const pairs: [string, string | number | null | undefined][] = [
    ['id', e.id],
    ['status', e.status],
    ['format', e.report_type ? `${e.format} (${e.report_type})` : e.format],
    ['delivery', e.delivery?.method],
    ['transactions', e.transaction_count],
    ['file_size', e.file_size],
    ['created_at', e.created_at],
    ['expires_at', e.expires_at],
  ];
  if (e.progress !== undefined) pairs.push(['progress', `${e.progress}%`]);
  if (e.estimated_completion) pairs.push(['estimated_completion', e.estimated_completion]);
  if (e.download_url) pairs.push(['download_url', e.download_url]);
  if (e.error) pairs.push(['error', `${e.error.code}: ${e.error.message}`]);
  if (file) pairs.push(['file', file]);
  out.record(pairs);
}

export function printExports(out: Output, list: ExportRecord[]): void {
  out.table(
    ['ID', 'STATUS', 'FORMAT', 'DELIVERY', 'TXS', 'SIZE', 'CREATED', 'EXPIRES'],
    list.map((e) => [e.id, e.status, e.report_type ? `${e.format}/${e.report_type}` : e.format, e.delivery?.method, e.transaction_count, e.file_size, e.created_at, e.expires_at]),
    ['left', 'left', 'left', 'left', 'right', 'right', 'left', 'left'],
  );
}

export const EXTENSION: Record<string, string> = { csv: 'csv', json: 'json', pdf: 'pdf' };
