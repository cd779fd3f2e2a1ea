/**
 * `tax`: income and expenses by tag type and by tag, and realised gains per token by the
 * chosen cost basis (core/cost-basis.ts), with every lot match and every disposal that lacks a
 * cost basis listed.
 */
import { Breakdown, byVolume, totalsCells } from '../aggregate.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import type { Flow, Render } from '../flow.js';
import { day, money, quantity, shortHash } from '../format.js';
import { progress } from '../progress.js';
import { tagTypeLookup } from '../tag-types.js';
import { tableSpec } from '../table.js';
import { movementOf, realisedGains, type AssetGains, type Movement } from '../../../core/cost-basis.js';
import type { ExportJob } from '../../types.js';

const TYPE_ORDER = ['income', 'expense', 'neutral', 'unknown', 'untagged'];
const TYPE_LABELS: Record<string, string> = { income: 'Income', expense: 'Expense', neutral: 'Neutral', unknown: 'Type unknown', untagged: 'Untagged' };
const METHOD_LABELS = { fifo: 'FIFO', lifo: 'LIFO', hifo: 'HIFO' } as const;
const METHOD_NOTES = {
  fifo: 'first in, first out: each disposal uses the oldest open lots',
  lifo: 'last in, first out: each disposal uses the newest open lots',
  hifo: 'highest in, first out: each disposal uses the open lots of highest unit cost',
} as const;

function collect(job: ExportJob) {
  const typeOf = tagTypeLookup(job);
  const types = new Breakdown();
  const tags = new Breakdown<{ type: string }>();
  // The report's disposals, by id: their gains are reported; the lots come from the full history.
  const hashes = new Map<string, string>();
  const tick = progress(job);
  for (const tx of job.rows()) {
    const txTypes = new Set<string>(tx.tags.map((t) => typeOf(t.id) ?? 'unknown'));
    if (txTypes.size === 0) txTypes.add('untagged');
    for (const type of txTypes) types.add(type, tx, () => ({ label: TYPE_LABELS[type] ?? type }));
    for (const tag of tx.tags) tags.add(tag.id, tx, () => ({ label: tag.name, type: typeOf(tag.id) ?? 'unknown' }));
    if (tx.direction === 'outflow') hashes.set(tx.id, tx.tx_hash);
    tick.tick();
  }
  tick.done();
  const movements = (function* (): Generator<Movement> {
    for (const tx of job.lotRows()) yield movementOf(tx);
  })();
  const gains = realisedGains(movements, job.options.cost_basis, (m) => hashes.has(m.id)).filter((g) => g.matchedQuantity + g.uncoveredQuantity > 0n);
  return { types, tags, gains, hashes };
}

export function taxReport(job: ExportJob): Render {
  const { types, tags, gains, hashes } = collect(job);
  const currency = job.options.currency;
  const method = job.options.cost_basis;
  const flowCols = [
    { label: `Inflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Outflow (${currency})`, weight: 2, align: 'right' as const },
    { label: `Net (${currency})`, weight: 2, align: 'right' as const },
    { label: 'Transactions', weight: 1.2, align: 'right' as const },
  ];
  const hashOf = (id: string) => shortHash(hashes.get(id) ?? id);
  return async (flow) => {
    flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [{ label: 'Tag type', weight: 3 }, ...flowCols]), 'Income and expenses by tag type', 'A transaction whose tags have several types counts under each.');
    for (const g of types.list((a, b) => TYPE_ORDER.indexOf(a.key) - TYPE_ORDER.indexOf(b.key))) flow.row([g.label, ...totalsCells(g.totals)]);
    flow.endTable();

    flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [{ label: 'Tag', weight: 3 }, { label: 'Type', weight: 1.2 }, ...flowCols]), 'By tag');
    const tagRows = tags.list(byVolume);
    for (const g of tagRows) flow.row([g.label, TYPE_LABELS[g.type] ?? g.type, ...totalsCells(g.totals)]);
    if (tagRows.length === 0) flow.row(['No tagged transactions']);
    flow.endTable();

    gainsTable(flow, gains, currency, `Realised gains (${METHOD_LABELS[method]})`);
    note(flow, `Cost basis ${METHOD_LABELS[method]}, ${METHOD_NOTES[method]}. Acquisitions are inflows with a fiat value; disposals are outflows, at their fiat value.`);
    note(flow, 'Partial lots are pro-rated exactly and rounded half to even to the cent. Gains count only disposals that have a fiat value.');
    flow.gap(12);

    const money$ = (c: bigint | null) => (c === null ? '—' : money(c));
    flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Disposed', weight: 1.3 }, { label: 'Token', weight: 1 }, { label: 'Chain', weight: 1.1 },
      { label: 'Quantity', weight: 2.4, align: 'right' }, { label: 'Acquired', weight: 1.3 },
      { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' }, { label: `Cost basis (${currency})`, weight: 1.8, align: 'right' },
      { label: `Gain / loss (${currency})`, weight: 1.8, align: 'right' }, { label: 'Transaction', weight: 1.6 },
    ]), 'Disposals matched to lots');
    let matches = 0;
    for (const g of gains) {
      for (const m of g.matches) {
        matches++;
        flow.row(
          [day(m.disposedAt), g.asset.symbol, g.asset.chain, quantity(m.quantity, g.asset.decimals), day(m.acquiredAt), money$(m.proceedsCents), money(m.costCents), money$(m.gainCents), hashOf(m.disposalId)],
          { colors: [undefined, undefined, undefined, undefined, undefined, undefined, undefined, gainColor(m.gainCents)] },
        );
      }
    }
    if (matches === 0) flow.row(['No disposal was matched to an acquired lot']);
    flow.endTable();

    const uncovered = gains.flatMap((g) => g.uncovered.map((u) => ({ g, u })));
    flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
      { label: 'Disposed', weight: 1.3 }, { label: 'Token', weight: 1 }, { label: 'Chain', weight: 1.1 },
      { label: 'Quantity without cost basis', weight: 2.6, align: 'right' }, { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' },
      { label: 'Transaction', weight: 2 },
    ]), 'Missing cost basis', 'Disposed quantities no acquired lot covers: not in the gains above.');
    for (const { g, u } of uncovered) {
      flow.row([day(u.disposedAt), g.asset.symbol, g.asset.chain, quantity(u.quantity, g.asset.decimals), money$(u.proceedsCents), hashOf(u.disposalId)], { colors: [undefined, undefined, undefined, COLORS.outflow] });
    }
    if (uncovered.length === 0) flow.row(['None: every disposal is covered by acquired lots']);
    flow.endTable();
  };
}

function gainsTable(flow: Flow, gains: AssetGains[], currency: string, title: string): void {
  flow.beginTable(tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
    { label: 'Token', weight: 1 }, { label: 'Chain', weight: 1.1 },
    { label: 'Quantity disposed', weight: 2.4, align: 'right' },
    { label: `Proceeds (${currency})`, weight: 1.8, align: 'right' }, { label: `Cost basis (${currency})`, weight: 1.8, align: 'right' },
    { label: `Gain / loss (${currency})`, weight: 1.8, align: 'right' },
    { label: 'Missing cost basis (qty)', weight: 2.4, align: 'right' },
  ]), title);
  const total = { proceeds: 0n, cost: 0n, gain: 0n };
  for (const g of gains) {
    const d = g.asset.decimals;
    flow.row(
      [g.asset.symbol, g.asset.chain, quantity(g.matchedQuantity + g.uncoveredQuantity, d), money(g.proceedsCents), money(g.costCents), money(g.gainCents), g.uncoveredQuantity > 0n ? quantity(g.uncoveredQuantity, d) : '—'],
      { colors: [undefined, undefined, undefined, undefined, undefined, gainColor(g.gainCents), g.uncoveredQuantity > 0n ? COLORS.outflow : undefined] },
    );
    total.proceeds += g.proceedsCents;
    total.cost += g.costCents;
    total.gain += g.gainCents;
  }
  if (gains.length === 0) flow.row(['No disposals in the period']);
  flow.row(['Total', '', '', money(total.proceeds), money(total.cost), money(total.gain), ''], { bold: true, fill: COLORS.headerFill });
  flow.endTable();
}

function note(flow: Flow, text: string): void {
  flow.block(11, (y) => flow.canvas.text(text, CONTENT_LEFT, y, CONTENT_WIDTH, { size: 7, color: COLORS.muted }));
}

function gainColor(cents: bigint | null): string | undefined {
  return cents === null || cents === 0n ? undefined : cents > 0n ? COLORS.inflow : COLORS.outflow;
}
