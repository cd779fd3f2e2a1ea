/**
 * `tax` under a jurisdiction other than the US (docs/jurisdictions.md, docs/reports.md): titled for
 * that country's return, its totals first as the return's figures (the form's boxes where it
 * numbers them), then every line of its report, as the CSV has them.
 */
import { jurisdictionOf } from '../../../accounting/jurisdictions/index.js';
import type { ReportCell, ReportLine, ReportTotal } from '../../../accounting/jurisdictions/types.js';
import type { JurisdictionCode } from '../../../core/jurisdictions.js';
import { LAYOUTS, type Layout } from '../jurisdiction-layouts.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import type { Flow, Render } from '../flow.js';
import { groupDigits, money } from '../format.js';
import { progress } from '../progress.js';
import { tableSpec } from '../table.js';
import type { ExportJob } from '../../types.js';
import { PDF_TOTAL_PREFIX } from '../../../core/pdf-totals.js';
import { centsToString } from '../../../core/money.js';

const cell = (v: ReportCell): string => (v === null ? '—' : typeof v === 'bigint' ? money(v) : /^-?\d+(\.\d+)?$/.test(v) ? groupDigits(v) : v);
const totalCell = (t: ReportTotal) => (t.kind === 'money' ? money(BigInt(t.value)) : String(t.value));

export function jurisdictionReport(job: ExportJob): Render {
  const code = job.options.jurisdiction as Exclude<JurisdictionCode, 'us'>;
  const j = jurisdictionOf(code);
  const layout = LAYOUTS[code];
  const { walletOrder, picks } = job.taxBooks();
  const report = j.report!({ assets: job.assets(), method: job.options.cost_basis, books: { walletOrder, picks } });
  const lines: ReportLine[] = [];
  const tick = progress(job);
  for (const { tx, reported } of job.ledgerRows()) {
    if (reported) tick.tick();
    lines.push(...report.add(tx, reported));
  }
  lines.push(...report.end());
  tick.done();
  const totals = report.totals();
  const currency = job.options.currency;
  return async (flow) => {
    // The totals in the information dictionary too: `txa export create` prints them (cli/commands/export/tax-totals.ts).
    for (const t of totals) flow.canvas.setInfo(`${PDF_TOTAL_PREFIX}${t.key}`, t.kind === 'money' ? centsToString(BigInt(t.value)) : String(t.value));
    totalsTable(flow, totals, layout, currency);
    linesTable(flow, lines, j.columns!, layout, currency);
  };
}

function totalsTable(flow: Flow, totals: ReportTotal[], layout: Layout, currency: string): void {
  const boxed = layout.boxes !== undefined;
  flow.beginTable(
    tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      ...(boxed ? [{ label: 'Box', weight: 0.8 }] : []),
      { label: 'Figure', weight: 6 },
      { label: `Amount (${currency})`, weight: 2, align: 'right' as const },
    ]),
    'For the return',
    layout.formNote,
  );
  for (const t of totals) flow.row([...(boxed ? [layout.boxes![t.key] ?? ''] : []), t.label, totalCell(t)]);
  flow.endTable();
}

function linesTable(flow: Flow, lines: ReportLine[], columns: readonly string[], layout: Layout, currency: string): void {
  const money = new Set<string>();
  for (const l of lines.slice(0, 1)) for (const c of columns) if (typeof l[c] === 'bigint') money.add(c);
  flow.beginTable(
    tableSpec(
      CONTENT_LEFT,
      CONTENT_WIDTH,
      columns.map((c) => {
        const col = layout.columns[c] ?? { label: c, weight: 1 };
        return money.has(c) ? { label: `${col.label} (${currency})`, weight: col.weight, align: 'right' as const } : { label: col.label, weight: col.weight };
      }),
    ),
    'Disposals',
    `${lines.length} line(s), in date order.`,
  );
  const gain = columns.indexOf('gain_loss');
  for (const l of lines) {
    const g = l.gain_loss;
    const colors = columns.map((_, i) => (i === gain && typeof g === 'bigint' && g !== 0n ? (g > 0n ? COLORS.inflow : COLORS.outflow) : undefined));
    flow.row(
      columns.map((c) => cell(l[c] ?? null)),
      { colors },
    );
  }
  if (lines.length === 0) flow.row(['None in the period']);
  flow.endTable();
}
