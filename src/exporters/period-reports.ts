/**
 * The reports a close keeps digests of (docs/periods.md "Digests": the tax, form8949 and
 * rollforward CSVs of the period) from one run of the tax ledger over the period's rows, where
 * each export runs its own. The roll-forward's ledger is the run (it alone needs a hook in it,
 * and it is ended at the period's start); the tax and Form 8949 reports take its lines. Each
 * report's text is the one its export writes, byte for byte, each straight into its hash (the tax
 * CSV's on this thread too: the file worker only reads the rows meanwhile, and its file stays empty).
 *
 * That the lines are the same as the tax report's own run holds where the export's filter selects
 * exactly the period's rows, as a close's does (its dates only): a row the filter selects is fed
 * to the roll-forward's ledger as reported, and one it does not (an opening lot dated in the
 * period) makes no line either way. A row outside that rule stops the shared run
 * (`NotShared`), and the caller writes the reports one by one.
 */
import { createHash } from 'node:crypto';
import type { TaxLine } from '../accounting/tax-ledger.js';
import type { OutFile, Written } from './chunked-file.js';
import { form8949Lines } from './form-reports.js';
import { rollForwardOf, writeRollTable } from './holdings-reports.js';
import { taxLinesReport, writeLedgerReport } from './tax-report.js';
import type { ExportJob } from './types.js';

/** The shared run met a row whose lines the reports would not all have (module note). */
export class NotShared extends Error {
  constructor(why: string) {
    super(`the period's reports cannot share one ledger run: ${why}`);
  }
}

/** Characters a DigestFile gathers before it hashes them. */
const DIGEST_CHUNK_CHARS = 64 * 1024;

/**
 * An OutFile that keeps only the SHA-256 of what is added (the bytes a ChunkedFile would write).
 * Texts (a line each) are hashed a chunk at a time: a hash update and a byte count per line
 * cost more than joining the lines (bench/RESULTS.md "Session 14").
 */
class DigestFile implements OutFile {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private parts: string[] = [];
  private size = 0;

  add(text: string): boolean {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= DIGEST_CHUNK_CHARS) this.update();
    return false;
  }

  private update(): void {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.hash.update(chunk, 'utf8');
    this.bytes += Buffer.byteLength(chunk, 'utf8');
  }

  async flush(): Promise<void> {}

  async close(): Promise<Written> {
    this.update();
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  destroy(): void {}
}

/** The period's jobs: one job's rows and options, as each report type sees them. */
export interface PeriodJobs {
  tax: ExportJob;
  form8949: ExportJob;
  rollforward: ExportJob;
}

/**
 * Writes the tax CSV to `taxPath` and digests the form8949 and rollforward CSVs, all from one run
 * of the tax ledger; answers each report's SHA-256. Throws NotShared (nothing to keep) where the
 * run cannot serve all three.
 */
export async function writePeriodReports(jobs: PeriodJobs, taxPath: string): Promise<Record<keyof PeriodJobs, string>> {
  const tax = taxLinesReport(jobs.tax);
  const form = form8949Lines(jobs.form8949);
  const formFile = new DigestFile();
  const rollFile = new DigestFile();
  const { roll, rows } = rollForwardOf(jobs.rollforward);
  /** Both reports' texts of a batch of lines: the form's into its hash, the tax report's to its file. */
  const texts = (lines: TaxLine[]) => {
    if (lines.length === 0) return tax.texts(lines);
    for (const text of form.texts(lines)) formFile.add(text);
    return tax.texts(lines);
  };
  form.start(formFile);
  const written = await writeLedgerReport(
    jobs.tax,
    taxPath,
    {
      start: (file) => tax.start(file),
      lines: (tx, reported) => {
        const lines = roll.add(tx);
        if (lines === null) throw new NotShared(`row ${tx.id} is after the period's end`);
        if (reported !== roll.inPeriod && (reported || tx.direction !== 'inflow' || tx.transfer || tx.income_tags.length > 0))
          throw new NotShared(`row ${tx.id} is ${reported ? '' : 'not '}selected by the filter`);
        return texts(lines);
      },
      end: async (file) => {
        for (const text of texts(roll.finish())) if (file.add(text)) await file.flush();
        await tax.end(file);
        await form.end(formFile);
        await writeRollTable(jobs.rollforward, rollFile, rows());
      },
    },
    { digestOnly: true },
  );
  return { tax: written.sha256, form8949: (await formFile.close()).sha256, rollforward: (await rollFile.close()).sha256 };
}
