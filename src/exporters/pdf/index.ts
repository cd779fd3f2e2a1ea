/**
 * PDF export writer: one of seven reports (docs/reports.md "Report types"), streamed to `destPath` in one pass over
 * the rows: pages go to disk as they are finished, so memory stays flat, and "Page N of M" is
 * written at the end into a form each page reserved (see docs/reports.md).
 */
import { Canvas } from './canvas.js';
import { pageChrome } from './chrome.js';
import { Flow, SECTION_GAP, type Render } from './flow.js';
import { COLORS } from './canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from './chrome.js';
import type { ReportNote } from '../../core/types.js';

/** Height of a line of a note (8-point text, wrapped to the page's width). */
const NOTE_LINE = 11;
import { reportTitle } from './format.js';
import { auditReport } from './reports/audit.js';
import { detailedReport } from './reports/detailed.js';
import { summaryReport } from './reports/summary.js';
import { taxReport } from './reports/tax.js';
import { jurisdictionReport } from './reports/jurisdiction.js';
import { form8949Report } from './reports/form8949.js';
import { positionsReport, rollforwardReport } from './reports/holdings.js';
import { withHeapGrowthCap } from '../heap-growth.js';
import { TxaError } from '../../core/errors.js';
import type { ExportJob, ExportWriter } from '../types.js';
import type { PdfReportType } from '../../core/export-values.js';

const REPORTS: Record<PdfReportType, (job: ExportJob) => Render> = {
  summary: summaryReport,
  detailed: detailedReport,
  tax: taxReport,
  audit: auditReport,
  form8949: form8949Report,
  positions: positionsReport,
  rollforward: rollforwardReport,
};

export const writePdf: ExportWriter = async (job, destPath) => {
  // Another jurisdiction's tax report is its own (docs/jurisdictions.md), titled for its return.
  const other = job.reportType === 'tax' && job.options.jurisdiction !== undefined && job.options.jurisdiction !== 'us';
  const report = other ? jurisdictionReport : job.reportType && (REPORTS as Partial<Record<string, (job: ExportJob) => Render>>)[job.reportType];
  if (!report) throw new TxaError('MISSING_REPORT_TYPE', 'report_type is required for PDF exports', { field: 'report_type' });
  return withHeapGrowthCap(() => writeReport(job, report, destPath));
};

/** Findings that make the figures incomplete, at the top of the first page (docs/periods.md, "Report notes"). */
function reportNotes(flow: Flow, notes: readonly ReportNote[]): void {
  if (notes.length === 0) return;
  flow.section('Notes: unresolved findings', NOTE_LINE * notes.length);
  const style = { size: 8, color: COLORS.text };
  for (const note of notes) {
    const lines = flow.canvas.wrap(`• ${note.message}`, CONTENT_WIDTH, style);
    flow.block(NOTE_LINE * lines.length, (y) => {
      for (const [i, line] of lines.entries()) flow.canvas.fitted(line, CONTENT_LEFT, y + i * NOTE_LINE, style);
    });
  }
  flow.gap(SECTION_GAP);
}

async function writeReport(job: ExportJob, report: (job: ExportJob) => Render, destPath: string): Promise<{ bytes: number }> {
  const canvas = new Canvas(destPath, {
    title: reportTitle(job),
    author: job.workspace.name,
    createdAt: new Date(job.createdAt),
  });
  try {
    const flow = new Flow(canvas, pageChrome(job));
    reportNotes(flow, job.notes?.() ?? []);
    await report(job)(flow);
    flow.finish();
    return { bytes: await canvas.finish() };
  } catch (err) {
    canvas.abort();
    throw err;
  }
}
