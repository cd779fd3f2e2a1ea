/**
 * JSON exports (docs/exports.md): `{"export":{…},"summary":{…},"groups"?:[…],"transactions":[…]}`,
 * streamed one transaction per line so memory stays flat; it is also an import format (docs/import.md).
 * Groups list their transactions by id: every transaction appears once, in `transactions`.
 */
import type { ExportJob, ExportWriter } from './types.js';
import { OFF_THREAD_ROWS, writeChunked, type OutFile } from './chunked-file.js';
import { transactionJsonRanges, transactionJsonRows } from '../store/json-rows.js';
import { jobRangeSpec, jobShare, RANGE_ROWS, type Unconverted } from './range-readers.js';
import { readTagSets, type TagSets } from '../store/tag-sets.js';

const PROGRESS_EVERY = 1000;

function header(job: ExportJob): string {
  const meta = { id: job.exportId, format: job.format, created_at: job.createdAt, filters: job.filters, options: job.options };
  const summary = job.options.include_summary ? `,"summary":${JSON.stringify(job.summary)}` : '';
  return `{"export":${JSON.stringify(meta)}${summary}`;
}

async function writeGroups(job: ExportJob, file: OutFile): Promise<void> {
  if (!job.groups) return;
  file.add(',"groups":[');
  let first = true;
  for (const group of job.groups()) {
    file.add(`${first ? '' : ','}\n{"key":${JSON.stringify(group.key)},"summary":${JSON.stringify(group.summary)},"transactions":[`);
    first = false;
    let sep = '';
    for (const id of group.ids()) {
      if (file.add(`${sep}${JSON.stringify(id)}`)) await file.flush();
      sep = ',';
    }
    file.add(']}');
  }
  file.add('\n]');
}

/**
 * Each transaction's JSON text: built by SQL when the export needs no conversion (the rows it
 * cannot print exactly come back as ids and are serialised here), else from the objects.
 */
function* transactionTexts(job: ExportJob, tagSets: TagSets | null): Generator<string> {
  const src = job.unconverted;
  if (!src) {
    for (const tx of job.rows()) yield JSON.stringify(tx);
    return;
  }
  for (const row of transactionJsonRows(src.db, src.workspaceId, src.filter, tagSets)) {
    yield row.charCodeAt(0) === 0x7b ? row : placeholderText(src, row);
  }
}

/** The JSON text of a row SQL could not print, which comes back as a space and its id. */
function placeholderText(src: Unconverted, row: string): string {
  return JSON.stringify(src.transaction(row.slice(1)));
}

export const writeJson: ExportWriter = async (job, destPath) => {
  const src = job.unconverted;
  // The tags of a Transaction are its TagRefs, so a set's text is their JSON.
  const tagSets = src ? readTagSets(src.db, src.workspaceId, job.transactionCount, (tags) => JSON.stringify(tags)) : null;
  let done = 0;
  const written = await writeChunked(
    destPath,
    async (file) => {
      file.add(header(job));
      await writeGroups(job, file);
      file.add(',"transactions":[');
      const cut = (src: Unconverted) => transactionJsonRanges(src.db, src.workspaceId, src.filter, RANGE_ROWS, tagSets);
      const spec = file.writeRanges && jobRangeSpec(job, cut, { separator: ',\n', placeholders: true });
      if (spec) {
        done = spec.ranges.total;
        if (done > 0) file.add('\n');
        await file.writeRanges!(
          spec,
          jobShare(job, spec, (row) => placeholderText(job.unconverted!, row)),
        );
      } else {
        for (const text of transactionTexts(job, tagSets)) {
          if (file.add(`${done === 0 ? '' : ','}\n${text}`)) await file.flush();
          if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
        }
      }
      file.add(`${done === 0 ? '' : '\n'}]}\n`);
    },
    { offThread: job.transactionCount >= OFF_THREAD_ROWS, ledger: job.unconverted?.snapshot?.path },
  );
  job.onProgress(done);
  return written;
};
