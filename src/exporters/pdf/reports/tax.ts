/**
 * `tax`: income and expenses by tag type and by tag (own transfers left out), then the tax
 * ledger's lines (src/accounting, docs/accounting.md): realised gains per asset, the split into
 * short- and long-term with totals per term, every disposed lot by term, income, and every
 * disposal that lacks a cost basis.
 */
import { Breakdown, byVolume, totalsCells } from '../aggregate.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import type { Flow, Render } from '../flow.js';
import { day, groupDigits, money, shortHash } from '../format.js';
import { progress } from '../progress.js';
import { tagTypeLookup } from '../../tag-types.js';
import { tableSpec } from '../table.js';
import { quantityText, type Quantity } from '../../../accounting/quantity.js';
import { taxOptionsOf } from '../../tax-options.js';
import { taxLines, type DisposalLine, type IncomeLine } from '../../../accounting/tax-ledger.js';
import { TaxTotals, type GainTotals } from '../../../accounting/totals.js';
import type { ExportJob } from '../../types.js';
import { PDF_TOTAL_KEYS } from '../../../core/pdf-totals.js';
import { centsToString } from '../../../core/money.js';
import { assetLabel } from '../../../accounting/assets.js';

const TYPE_ORDER = ['income', 'expense', 'neutral', 'unknown', 'untagged'];
const TYPE_LABELS: Record<string, string> = { income: 'Income', expense: 'Expense', neutral: 'Neutral', unknown: 'Type unknown', untagged: 'Untagged' };
const METHOD_LABELS = { fifo: 'FIFO', lifo: 'LIFO', hifo: 'HIFO', specific: 'specific identification' } as const;
const METHOD_NOTES = {
  fifo: 'first in, first out: each disposal uses the oldest open lots',
  lifo: 'last in, first out: each disposal uses the newest open lots',
  hifo: 'highest in, first out: each disposal uses the open lots of highest unit cost',
  specific: 'each disposal uses the lots recorded for it, any rest first in, first out',
} as const;
const SCOPE_NOTES = {
  wallet: 'lots are kept per wallet',
  universal: 'lots of an asset form one pool across wallets',
  year: 'lots of an asset form one pool across wallets before 2025 and are kept per wallet from 2025',
} as const;
const FEE_NOTES = {
  adjust: "a trade's fee is added to the cost of what it acquired, or taken from the proceeds of what it disposed of",
  separate: 'fees are disposals of their own only',
} as const;
const SCOPE_LABELS = { wallet: 'per wallet', universal: 'universal', year: 'pooled before 2025, per wallet from 2025' } as const;

interface TaxData {
  types: Breakdown;
  tags: Breakdown<{ type: string }>;
  /** Own-transfer legs among the report's rows, left out of the tag tables. */
  ownTransfers: number;
  totals: TaxTotals;
  short: DisposalLine[];
  long: DisposalLine[];
  missing: DisposalLine[];
  income: IncomeLine[];
}

function collect(job: ExportJob): TaxData {
  const typeOf = tagTypeLookup(job);
  const data: TaxData = {
    types: new Breakdown(),
    tags: new Breakdown(),
    ownTransfers: 0,
    totals: new TaxTotals(),
    short: [],
    long: [],
    missing: [],
    income: [],
  };
  const tick = progress(job);
  for (const tx of job.rows()) {
    tick.tick();
    if (tx.transfer) {
      data.ownTransfers++;
      continue;
    }
    const txTypes = new Set<string>(tx.tags.map((t) => typeOf(t.id) ?? 'unknown'));
    if (txTypes.size === 0) txTypes.add('untagged');
    for (const type of txTypes) data.types.add(type, tx, () => ({ label: TYPE_LABELS[type] ?? type }));
    for (const tag of tx.tags) data.tags.add(tag.id, tx, () => ({ label: tag.name, type: typeOf(tag.id) ?? 'unknown' }));
  }
  tick.done();
  for (const line of taxLines(job.ledgerRows(), taxOptionsOf(job))) {
    data.totals.add(line);
    if (line.kind === 'income') data.income.push(line);
    else (line.term === null ? data.missing : data[line.term]).push(line);
  }
  return data;
}

const qty = (q: Quantity) => groupDigits(quantityText(q));
const money$ = (c: bigint | null) => (c === null ? '—' : money(c));

export function taxReport(job: ExportJob): Render {
  const data = collect(job);
  const currency = job.options.currency;
  const method = job.options.cost_basis;
  const scope = job.options.basis_scope ?? 'year';
  const flowCols = [
    { label: `Inflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Outflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Net (${currency})`, weight: 2, align: 'right' as const },
    { label: 'Transactions', weight: 1.2, align: 'right' as const },
  ];
  const ownNote = `${data.ownTransfers > 0 ? `${data.ownTransfers} own-transfer leg(s) are` : 'Own transfers are'} left out of these tables: moving between own wallets is neither income nor expense.`;
  return async (flow) => {
    flow.beginTable(
      tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [{ label: 'Tag type', weight: 3 }, ...flowCols]),
      'Income and expenses by tag type',
      'A transaction whose tags have several types counts under each.',
    );
    for (const g of data.types.list((a, b) => TYPE_ORDER.indexOf(a.key) - TYPE_ORDER.indexOf(b.key))) flow.row([g.label, ...totalsCells(g.totals)]);
    if (data.types.groups.size === 0) flow.row(['No transactions']);
    flow.endTable();
    // On a line of its own: the table heading's note is cut to one line.
    note(flow, ownNote);

    flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [{ label: 'Tag', weight: 3 }, { label: 'Type', weight: 1.2 }, ...flowCols]), 'By tag');
    const tagRows = data.tags.list(byVolume);
    for (const g of tagRows) flow.row([g.label, TYPE_LABELS[g.type] ?? g.type, ...totalsCells(g.totals)]);
    if (tagRows.length === 0) flow.row(['No tagged transactions']);
    flow.endTable();

    gainsTable(flow, data.totals, currency, `Realised gains (${METHOD_LABELS[method]}, ${SCOPE_LABELS[scope]})`);
    termTable(flow, data.totals, currency);
    pdfTotals(flow, data.totals);
    note(
      flow,
      `Cost basis ${METHOD_LABELS[method]}, ${METHOD_NOTES[method]}; ${SCOPE_NOTES[scope]}. Acquisitions are inflows at their fiat value; disposals are outflows (payments, swaps, fees) at theirs; ${FEE_NOTES[job.options.fee_treatment ?? 'adjust']}.`,
    );
    note(
      flow,
      'Own transfers move lots between wallets with their date and cost; short-term is held one year or less. Gains count only disposals with a fiat value and a cost basis.',
    );
    flow.gap(12);

    linesTable(flow, data.short, data.totals.byTerm.short, currency, 'Short-term disposals (held one year or less)');
    linesTable(flow, data.long, data.totals.byTerm.long, currency, 'Long-term disposals (held more than one year)');
    incomeTable(flow, data.income, data.totals.incomeCents, currency);

    flow.beginTable(
      tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
        { label: 'Disposed', weight: 1.3 },
        { label: 'Asset', weight: 1 },
        { label: 'Wallet', weight: 1.6 },
        { label: 'Chain', weight: 1.1 },
        { label: 'Quantity without cost basis', weight: 2.6, align: 'right' },
        { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' },
        { label: 'Transaction', weight: 1.6 },
      ]),
      'Missing cost basis',
      'Disposed quantities no acquired lot covers: not in the gains above.',
    );
    for (const l of data.missing) {
      flow.row([day(l.tx.timestamp), assetLabel(l.asset), l.tx.wallet_label, l.tx.chain, qty(l.quantity), money$(l.proceedsCents), shortHash(l.tx.tx_hash)], {
        colors: [undefined, undefined, undefined, undefined, COLORS.outflow],
      });
    }
    if (data.missing.length === 0) flow.row(['None: all covered']);
    flow.endTable();
  };
}

function gainsTable(flow: Flow, totals: TaxTotals, currency: string, title: string): void {
  flow.beginTable(
    tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Asset', weight: 1.4 },
      { label: 'Quantity disposed', weight: 2.4, align: 'right' },
      { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' },
      { label: `Cost basis (${currency})`, weight: 1.8, align: 'right' },
      { label: `Gain / loss (${currency})`, weight: 1.8, align: 'right' },
      { label: 'Missing cost basis (qty)', weight: 2.4, align: 'right' },
    ]),
    title,
  );
  const assets = totals.perAsset();
  for (const a of assets) {
    const missing = a.missing.units > 0n;
    flow.row([assetLabel(a.asset), qty(a.disposed), money(a.proceedsCents), money(a.costCents), money(a.gainCents), missing ? qty(a.missing) : '—'], {
      colors: [undefined, undefined, undefined, undefined, gainColor(a.gainCents), missing ? COLORS.outflow : undefined],
    });
  }
  if (assets.length === 0) flow.row(['No disposals in the period']);
  const t = totals.total;
  flow.row(['Total', '', money(t.proceedsCents), money(t.costCents), money(t.gainCents), ''], { bold: true, fill: COLORS.headerFill });
  flow.endTable();
}

/**
 * The gains in the file's information dictionary, so `txa export create` prints them in the
 * terminal as it does a CSV's or JSON's (src/cli/commands/export/tax-totals.ts reads them back).
 */
function pdfTotals(flow: Flow, totals: TaxTotals): void {
  for (const [key, g] of [
    [PDF_TOTAL_KEYS.short_term_gain, totals.byTerm.short],
    [PDF_TOTAL_KEYS.long_term_gain, totals.byTerm.long],
    [PDF_TOTAL_KEYS.total_gain, totals.total],
  ] as const) {
    flow.canvas.setInfo(key, centsToString(g.gainCents));
  }
}

function termTable(flow: Flow, totals: TaxTotals, currency: string): void {
  flow.beginTable(
    tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Term', weight: 3 },
      { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' },
      { label: `Cost basis (${currency})`, weight: 1.8, align: 'right' },
      { label: `Gain / loss (${currency})`, weight: 1.8, align: 'right' },
    ]),
    'Short-term and long-term',
  );
  const row = (label: string, g: GainTotals, bold = false) =>
    flow.row(
      [label, money(g.proceedsCents), money(g.costCents), money(g.gainCents)],
      bold ? { bold, fill: COLORS.headerFill } : { colors: [undefined, undefined, undefined, gainColor(g.gainCents)] },
    );
  row('Short-term gain', totals.byTerm.short);
  row('Long-term gain', totals.byTerm.long);
  row('Total gain', totals.total, true);
  flow.endTable();
}

function linesTable(flow: Flow, lines: DisposalLine[], total: GainTotals, currency: string, title: string): void {
  flow.beginTable(
    tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Sold', weight: 1.3 },
      { label: 'Acquired', weight: 1.3 },
      { label: 'Asset', weight: 0.9 },
      { label: 'Wallet', weight: 1.5 },
      { label: 'Quantity', weight: 2.2, align: 'right' },
      { label: `Proceeds (${currency})`, weight: 1.7, align: 'right' },
      { label: `Cost basis (${currency})`, weight: 1.7, align: 'right' },
      { label: `Gain / loss (${currency})`, weight: 1.7, align: 'right' },
      { label: 'Transaction', weight: 1.5 },
    ]),
    title,
  );
  for (const l of lines) {
    flow.row(
      [
        day(l.tx.timestamp),
        day(l.acquired!.at),
        assetLabel(l.asset),
        l.tx.wallet_label,
        qty(l.quantity),
        money$(l.proceedsCents),
        money$(l.costCents),
        money$(l.gainCents),
        shortHash(l.tx.tx_hash),
      ],
      { colors: [undefined, undefined, undefined, undefined, undefined, undefined, undefined, gainColor(l.gainCents)] },
    );
  }
  if (lines.length === 0) flow.row(['None']);
  flow.row(['Total', '', '', '', '', money(total.proceedsCents), money(total.costCents), money(total.gainCents), ''], { bold: true, fill: COLORS.headerFill });
  flow.endTable();
}

function incomeTable(flow: Flow, lines: IncomeLine[], totalCents: bigint, currency: string): void {
  flow.beginTable(
    tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Date', weight: 1.3 },
      { label: 'Asset', weight: 1 },
      { label: 'Wallet', weight: 1.6 },
      { label: 'Chain', weight: 1.1 },
      { label: 'Quantity', weight: 2.4, align: 'right' },
      { label: `Fair value (${currency})`, weight: 1.8, align: 'right' },
      { label: 'Tag', weight: 2 },
    ]),
    'Income',
    'Inflows with an income-type tag, at their fiat value; each opens a lot at that value.',
  );
  for (const l of lines)
    flow.row([day(l.tx.timestamp), assetLabel(l.asset), l.tx.wallet_label, l.tx.chain, qty(l.quantity), money$(l.valueCents), l.tags.join('; ')]);
  if (lines.length === 0) flow.row(['No income']);
  flow.row(['Total', '', '', '', '', money(totalCents), ''], { bold: true, fill: COLORS.headerFill });
  flow.endTable();
}

function note(flow: Flow, text: string): void {
  flow.block(11, (y) => flow.canvas.text(text, CONTENT_LEFT, y, CONTENT_WIDTH, { size: 7, color: COLORS.muted }));
}

function gainColor(cents: bigint | null): string | undefined {
  return cents === null || cents === 0n ? undefined : cents > 0n ? COLORS.inflow : COLORS.outflow;
}
