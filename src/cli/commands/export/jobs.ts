/**
 * How `export create` sees a job through, with its progress on stderr (progress.ts): on the local
 * ledger created and run in this process (the exports service), on the API polled with --wait.
 */
import type { Backend } from '../../../core/backend.js';
import type { ExportRecord } from '../../../core/types.js';
import type { ExportsService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import { progressView } from './progress.js';
import type { ExportBody } from './request.js';

const POLL_MS = 1000;

/** A download runs while the export is created: past a second it shows progress on a terminal (docs/exports.md). */
const DOWNLOAD_PROGRESS_AFTER_MS = 1000;

/** Creates the export on the local ledger; a download is written now, with its progress. */
export async function createLocal(ctx: Context, exports: ExportsService, ws: string, body: ExportBody, signal?: AbortSignal): Promise<ExportRecord> {
  if (body.delivery.method !== undefined && body.delivery.method !== 'download') return exports.create(ws, body, { signal });
  const view = await progressView(ctx.out, `export ${body.format}`, { afterMs: DOWNLOAD_PROGRESS_AFTER_MS, terminalOnly: true });
  try {
    const rec = await exports.create(ws, body, { signal, onProgress: (p) => view.update(p.progress, `(${p.done}/${p.total} rows)`) });
    view.stop(`export ${rec.id} ${rec.status}`, true);
    return rec;
  } catch (err) {
    view.stop(`export ${body.format} failed`, false);
    throw err;
  }
}

/**
 * Runs a job to its end: in this process on the local ledger (`exports`: it holds the job
 * already), else by polling the API with `wait`, else not at all.
 */
export async function follow(
  ctx: Context,
  backend: Backend,
  ws: string,
  rec: ExportRecord,
  how: { exports?: ExportsService; wait: boolean; signal?: AbortSignal },
): Promise<ExportRecord> {
  const view = await progressView(ctx.out, `export ${rec.id}`);
  if (how.exports) {
    await how.exports.run(rec.id, { signal: how.signal, onProgress: (p) => view.update(p.progress, `(${p.done}/${p.total} rows)`) });
  } else if (how.wait) {
    while (rec.status === 'queued' || rec.status === 'processing') {
      await new Promise((r) => setTimeout(r, POLL_MS));
      rec = await backend.getExport(ws, rec.id);
      view.update(rec.progress ?? (rec.status === 'completed' ? 100 : 0), rec.estimated_completion ? `(eta ${rec.estimated_completion})` : undefined);
    }
  } else {
    return rec;
  }
  rec = await backend.getExport(ws, rec.id);
  view.stop(`export ${rec.id} ${rec.status}`, rec.status === 'completed');
  return rec;
}
