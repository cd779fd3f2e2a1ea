/**
 * `summary`: totals, breakdowns by month, tag, chain and token, and two charts. Legs of own
 * transfers are left out (moving between one's own wallets is neither inflow nor outflow), and
 * the page says how many.
 */
import { Breakdown, addTo, byVolume, emptyTotals, net, totalsCells, type FlowTotals } from '../aggregate.js';
import { COLORS, type Canvas } from '../canvas.js';
import { monthlyBars, tagBars, type Series } from '../charts.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import { SECTION_GAP, type Flow, type Render } from '../flow.js';
import { money, quantity } from '../format.js';
import { progress } from '../progress.js';
import { tagTypeLookup } from '../../tag-types.js';
import { tableSpec } from '../table.js';
import { tokenId } from '../../../accounting/assets.js';
import { quantityOf } from '../../../accounting/quantity.js';
import type { ExportJob } from '../../types.js';

const UNTAGGED = '(untagged)';
const CHART_HEIGHT = 190;
const CHART_TAGS = 8;

interface TokenExtra {
  chain: string;
  decimals: number;
  inUnits: bigint;
  outUnits: bigint;
}

interface SummaryData {
  totals: FlowTotals;
  ownTransfers: number;
  months: Breakdown;
  tags: Breakdown<{ color: string; type: string }>;
  chains: Breakdown;
  tokens: Breakdown<TokenExtra>;
}

function collect(job: ExportJob): SummaryData {
  const typeOf = tagTypeLookup(job);
  const data: SummaryData = {
    totals: emptyTotals(),
    ownTransfers: 0,
    months: new Breakdown(),
    tags: new Breakdown(),
    chains: new Breakdown(),
    tokens: new Breakdown(),
  };
  const tick = progress(job);
  for (const tx of job.rows()) {
    tick.tick();
    if (tx.transfer) {
      data.ownTransfers++;
      continue;
    }
    addTo(data.totals, tx);
    const month = tx.timestamp.slice(0, 7);
    data.months.add(month, tx, () => ({ label: month }));
    if (tx.tags.length === 0) data.tags.add('', tx, () => ({ label: UNTAGGED, color: COLORS.muted, type: '' }));
    for (const tag of tx.tags) data.tags.add(tag.id, tx, () => ({ label: tag.name, color: tag.color, type: typeOf(tag.id) ?? 'unknown' }));
    // An exchange wallet's rows (chain null) are one line, `exchange`.
    const chain = tx.chain ?? 'exchange';
    data.chains.add(chain, tx, () => ({ label: chain }));
    // Per token and chain, at the token's decimals (a row of other decimals gets its own line).
    const key = `${tokenId(chain, tx.token)}:${tx.token.decimals}`;
    data.tokens.add(key, tx, () => ({ label: tx.token.symbol, chain, decimals: tx.token.decimals, inUnits: 0n, outUnits: 0n }));
    const token = data.tokens.groups.get(key)!;
    const units = quantityOf(tx.amount, tx.token.decimals).units;
    if (tx.direction === 'inflow') token.inUnits += units;
    else token.outUnits += units;
  }
  tick.done();
  return data;
}

export function summaryReport(job: ExportJob): Render {
  const data = collect(job);
  const currency = job.options.currency;
  const months = data.months.list();
  const tags = data.tags.list(byVolume);
  const flowCols = [
    { label: `Inflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Outflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Net (${currency})`, weight: 2, align: 'right' as const },
    { label: 'Transactions', weight: 1.2, align: 'right' as const },
  ];
  return async (flow) => {
    const canvas = flow.canvas;
    flow.section('Totals', 56);
    flow.block(46, (y) => statCards(canvas, y, data.totals, currency));
    const notes = [
      data.totals.unpriced > 0 ? `${data.totals.unpriced} transaction(s) have no fiat value and are not in the totals.` : '',
      data.ownTransfers > 0
        ? `${data.ownTransfers} own-transfer leg(s) are left out of every total and table: moving between own wallets is neither inflow nor outflow.`
        : '',
    ].filter(Boolean);
    for (const text of notes) flow.block(12, (y) => canvas.text(text, CONTENT_LEFT, y + 2, CONTENT_WIDTH, { size: 7, color: COLORS.muted }));
    flow.gap(10);
    flow.block(CHART_HEIGHT, (y) => {
      const leftW = CONTENT_WIDTH * 0.58;
      monthlyBars(canvas, CONTENT_LEFT, y, leftW, CHART_HEIGHT, `Monthly inflow and outflow (${currency})`, months.map(series));
      tagBars(canvas, CONTENT_LEFT + leftW + 24, y, CONTENT_WIDTH - leftW - 24, CHART_HEIGHT, `By tag (${currency})`, chartTags(tags));
    });
    flow.gap(SECTION_GAP);

    breakdownTable(
      flow,
      'By month',
      [{ label: 'Month', weight: 2 }, ...flowCols],
      months.map((m) => [m.label, ...totalsCells(m.totals)]),
      data.totals,
    );
    breakdownTable(
      flow,
      'By tag',
      [{ label: 'Tag', weight: 3 }, { label: 'Type', weight: 1.2 }, ...flowCols],
      tags.map((t) => [t.label, t.type, ...totalsCells(t.totals)]),
      null,
      'A transaction with several tags counts under each of them.',
    );
    breakdownTable(
      flow,
      'By chain',
      [{ label: 'Chain', weight: 2 }, ...flowCols],
      data.chains.list().map((c) => [c.label, ...totalsCells(c.totals)]),
      data.totals,
    );
    breakdownTable(
      flow,
      'By token',
      [
        { label: 'Token', weight: 1.2 },
        { label: 'Chain', weight: 1.2 },
        { label: 'Amount in', weight: 2.4, align: 'right' },
        { label: 'Amount out', weight: 2.4, align: 'right' },
        { label: `Value in (${currency})`, weight: 1.8, align: 'right' },
        { label: `Value out (${currency})`, weight: 1.8, align: 'right' },
        { label: 'Transactions', weight: 1.1, align: 'right' },
      ],
      data.tokens
        .list(byVolume)
        .map((t) => [
          t.label,
          t.chain,
          quantity(t.inUnits, t.decimals),
          quantity(t.outUnits, t.decimals),
          money(t.totals.inflow),
          money(t.totals.outflow),
          String(t.totals.count),
        ]),
      null,
    );
  };
}

function breakdownTable(flow: Flow, title: string, columns: Parameters<typeof tableSpec>[2], rows: string[][], total: FlowTotals | null, note?: string): void {
  flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, columns), title, note);
  for (const row of rows) flow.row(row);
  if (rows.length === 0) flow.row(['No transactions']);
  if (total) flow.row(['Total', ...totalsCells(total)], { bold: true, fill: COLORS.headerFill });
  flow.endTable();
}

function series(g: { label: string; totals: FlowTotals; color?: string }): Series {
  return { label: g.label, inflow: g.totals.inflow, outflow: g.totals.outflow, ...(g.color ? { color: g.color } : {}) };
}

/** The largest tags, the rest folded into "Other tags" so the chart stays readable. */
function chartTags(tags: { label: string; totals: FlowTotals; color: string }[]): Series[] {
  if (tags.length <= CHART_TAGS) return tags.map(series);
  // biome-ignore lint/performance/noAccumulatingSpread: a handful of tags, one small object
  const rest = tags.slice(CHART_TAGS - 1).reduce((s, t) => ({ ...s, inflow: s.inflow + t.totals.inflow, outflow: s.outflow + t.totals.outflow }), {
    label: 'Other tags',
    inflow: 0,
    outflow: 0,
    color: COLORS.rule,
  });
  return [...tags.slice(0, CHART_TAGS - 1).map(series), rest];
}

function statCards(canvas: Canvas, y: number, t: FlowTotals, currency: string): void {
  const cards: [string, string, string][] = [
    [`Total inflow (${currency})`, money(t.inflow), COLORS.inflow],
    [`Total outflow (${currency})`, money(t.outflow), COLORS.outflow],
    [`Net flow (${currency})`, money(net(t)), COLORS.text],
    ['Transactions', String(t.count), COLORS.text],
  ];
  const gap = 12;
  const w = (CONTENT_WIDTH - gap * (cards.length - 1)) / cards.length;
  cards.forEach(([label, value, color], i) => {
    const x = CONTENT_LEFT + i * (w + gap);
    canvas.rect(x, y, w, 42, COLORS.zebra);
    canvas.rect(x, y, 3, 42, color);
    canvas.text(label, x + 12, y + 7, w - 20, { size: 7.5, color: COLORS.muted });
    canvas.text(value, x + 12, y + 20, w - 20, { size: 14, bold: true, color });
  });
}
