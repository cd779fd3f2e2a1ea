/**
 * The tax report of a jurisdiction with rules of its own (docs/jurisdictions.md) as
 * CSV or JSON: its report (src/accounting/jurisdictions/) fed the whole ledger in time order, its
 * lines written as the US report writes its own (money to 2 decimals in CSV, numbers in JSON), then
 * its totals: in CSV one summary row each under `gain_loss`, in JSON an object by key.
 */
import { jurisdictionOf } from '../accounting/jurisdictions/index.js';
import type { ReportLine, ReportTotal } from '../accounting/jurisdictions/types.js';
import { centsToNumber } from '../core/money.js';
import { OFF_THREAD_ROWS, writeChunked } from './chunked-file.js';
import { csvLine } from './csv-text.js';
import { csvRowWriter, csvText, ledgerGroups } from './tax-report.js';
import type { ExportJob, ExportWriter } from './types.js';

const PROGRESS_EVERY = 1000;

const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? centsToNumber(Number(v)) : v));

function totalCell(t: ReportTotal): string {
  return t.kind === 'money' ? csvText(BigInt(t.value)) : String(t.value);
}

export const writeJurisdictionReport: ExportWriter = async (job: ExportJob, destPath) => {
  const j = jurisdictionOf(job.options.jurisdiction!);
  const columns = j.columns!;
  const { walletOrder, picks } = job.taxBooks();
  const report = j.report!({ assets: job.assets(), method: job.options.cost_basis, books: { walletOrder, picks } });
  const csv = job.format !== 'json';
  const rowText = csvRowWriter(columns);
  let rows = 0;
  let seen = 0;
  const offThread = job.transactionCount >= OFF_THREAD_ROWS || job.ledgerSource?.hasRows(OFF_THREAD_ROWS) === true;
  const written = await writeChunked(
    destPath,
    async (file) => {
      if (csv) file.add(csvLine([...columns]));
      else {
        const meta = { id: job.exportId, format: job.format, report_type: 'tax', created_at: job.createdAt, filters: job.filters, options: job.options };
        file.add(`{"export":${JSON.stringify(meta)},"jurisdiction":${JSON.stringify(j.code)},"lines":[`);
      }
      const write = (lines: ReportLine[]) => {
        let full = false;
        for (const line of lines) {
          const text = csv ? rowText(line) : `${rows === 0 ? '' : ','}\n${json(line)}`;
          rows++;
          if (file.add(text)) full = true;
        }
        return full;
      };
      for await (const group of ledgerGroups(job, file)) {
        for (const { tx, reported } of group) {
          if (reported && ++seen % PROGRESS_EVERY === 0) job.onProgress(seen);
          if (write(report.add(tx, reported))) await file.flush();
        }
      }
      write(report.end());
      const totals = report.totals();
      // The notes are counted only where they are printed (the JSON, the CSV's summary): over a
      // large ledger the count is a pass over its rows (engine/report-notes.ts).
      const notes = () => job.notes?.() ?? [];
      if (csv) {
        if (job.options.include_summary) {
          file.add(csvLine(columns.map(() => '')));
          for (const t of totals) file.add(csvLine(columns.map((c, i) => (i === 0 ? t.label : c === 'gain_loss' ? totalCell(t) : ''))));
          for (const note of notes()) file.add(csvLine(columns.map((_, i) => (i === 0 ? `Note: ${note.message}` : ''))));
        }
      } else {
        const summary = job.options.include_summary ? `,"totals":${json(Object.fromEntries(totals.map((t) => [t.key, t.value])))}` : '';
        file.add(`\n]${summary},"notes":${JSON.stringify(notes().map(({ kind, count, message }) => ({ kind, count, message })))}}\n`);
      }
    },
    { offThread, ...(offThread && job.ledgerSource?.snapshot ? { ledger: job.ledgerSource.snapshot.path } : {}) },
  );
  job.onProgress(seen);
  return written;
};
