/**
 * `txa export create` on the local ledger: this process claims the job as it creates it and runs
 * it in the foreground (docs/exports.md); a signal fails it (src/cli/commands/export/interrupt.ts).
 */
import type { LocalBackend } from '../engine/local-backend.js';
import { failOwnJobs, runExportJob, type JobProgress } from '../engine/export-jobs.js';

export interface JobControl {
  signal?: AbortSignal;
  onProgress?: (p: JobProgress) => void;
}

export function exportsService(backend: LocalBackend) {
  return {
    /** Creates the export as this process's job: a download is written now; an e-mail or webhook one waits for `run`. */
    create: (ws: string, body: unknown, job: JobControl) => backend.createExport(ws, body, { role: 'cli', ...job }),
    /** Runs a job this process created, to its end (recorded on the export). */
    run: (id: string, job: JobControl) => runExportJob(backend.engine, id, job.onProgress, { role: 'cli', signal: job.signal }),
    /** Fails every job this process runs, at once: partial files removed, the record `failed` with `code`. */
    failOwn: (code: string, message: string) => failOwnJobs(backend.engine, code, message),
  };
}

export type ExportsService = ReturnType<typeof exportsService>;
