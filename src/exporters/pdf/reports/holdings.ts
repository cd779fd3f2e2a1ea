/**
 * `positions` and `rollforward` as PDFs (docs/reports.md "Positions and roll-forward"): the open
 * lots at a day with their values, and per wallet and asset what the period did to the lots,
 * quantities and costs in two tables (eighteen columns do not fit one page's width).
 */
import { quantityText, type Quantity } from '../../../accounting/quantity.js';
import { ROLL_FLOWS } from '../../../accounting/rollforward.js';
import { positionsFeed, rollForwardOf } from '../../holdings-reports.js';
import type { ExportJob } from '../../types.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import type { Flow, Render } from '../flow.js';
import { groupDigits, money } from '../format.js';
import { tableSpec } from '../table.js';
import { assetLabel } from '../../../accounting/assets.js';

const qty = (q: Quantity) => groupDigits(quantityText(q));
const cents = (c: bigint | null) => (c === null ? '—' : money(c));

function note(flow: Flow, text: string): void {
  flow.block(11, (y) => flow.canvas.text(text, CONTENT_LEFT, y, CONTENT_WIDTH, { size: 7, color: COLORS.muted }));
}

export function positionsReport(job: ExportJob): Render {
  const feed = positionsFeed(job);
  for (const { tx } of job.ledgerRows()) feed.feed(tx);
  const result = feed.finish();
  const currency = job.options.currency;
  return async (flow) => {
    flow.beginTable(
      tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
        { label: 'Wallet', weight: 1.5 },
        { label: 'Asset', weight: 0.8 },
        { label: 'Lot', weight: 2.2 },
        { label: 'Quantity', weight: 1.8, align: 'right' },
        { label: 'Acquired', weight: 1.1 },
        { label: `Cost basis (${currency})`, weight: 1.4, align: 'right' },
        { label: `Market value (${currency})`, weight: 1.4, align: 'right' },
        { label: `Unrealized (${currency})`, weight: 1.4, align: 'right' },
        { label: 'Term if sold', weight: 0.9 },
      ]),
      `Open lots at the end of ${result.day ?? '—'}`,
    );
    let cost = 0n;
    let value = 0n;
    let lots = 0;
    for (const p of result.positions()) {
      lots++;
      cost += p.lot.costCents;
      value += p.marketValue ?? 0n;
      flow.row([
        result.labels.get(p.lot.scope) ?? (p.lot.scope === '*' ? 'All wallets' : p.lot.scope),
        assetLabel(p.lot.asset),
        p.lot.lotId,
        qty(p.lot.quantity),
        p.lot.acquiredAt.slice(0, 10),
        money(p.lot.costCents),
        cents(p.marketValue),
        cents(p.unrealizedGain),
        p.termIfSold,
      ]);
    }
    if (lots === 0) flow.row(['No open lots']);
    const unpriced = result.unpriced();
    const priced = unpriced.length === 0;
    flow.row(['Total', '', `${lots} lot(s)`, '', '', money(cost), priced ? money(value) : '—', priced ? money(value - cost) : '—', ''], {
      bold: true,
      fill: COLORS.headerFill,
    });
    flow.endTable();
    if (!priced) note(flow, `No price on ${result.day} for ${unpriced.join(', ')}: market value and unrealized gain left empty.`);
    note(flow, "Market value: the day's last valued row of the asset (its value over its quantity), else a price imported for that day (txa prices import).");
  };
}

const FLOW_LABELS: Record<(typeof ROLL_FLOWS)[number], string> = {
  opening: 'Opening',
  acquired: 'Acquired',
  income: 'Income',
  disposed: 'Disposed',
  transfer_in: 'Transfer in',
  transfer_out: 'Transfer out',
  closing: 'Closing',
};

export function rollforwardReport(job: ExportJob): Render {
  const roll = rollForwardOf(job);
  for (const { tx } of job.ledgerRows()) roll.feed(tx);
  const rows = roll.rows();
  const currency = job.options.currency;
  const head = [
    { label: 'Wallet', weight: 1.4 },
    { label: 'Asset', weight: 0.8 },
  ];
  return async (flow) => {
    flow.beginTable(
      tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
        ...head,
        ...ROLL_FLOWS.map((f) => ({ label: FLOW_LABELS[f], weight: 1.2, align: 'right' as const })),
        { label: 'Balance', weight: 1.2, align: 'right' },
        { label: 'Difference', weight: 1.1, align: 'right' },
      ]),
      'Quantities',
      'closing = opening + acquired + income − disposed + in − out; difference = balance − closing',
    );
    for (const r of rows) {
      const off = r.difference.units !== 0n;
      flow.row([r.wallet_label, assetLabel(r.asset), ...ROLL_FLOWS.map((f) => qty(r.flows[f].quantity)), qty(r.balance), qty(r.difference)], {
        colors: off ? [...Array(2 + ROLL_FLOWS.length + 1).fill(undefined), COLORS.outflow] : [],
      });
    }
    if (rows.length === 0) flow.row(['No lots or rows in the period']);
    flow.endTable();
    flow.beginTable(
      tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
        ...head,
        ...ROLL_FLOWS.map((f) => ({ label: `${FLOW_LABELS[f]} (${currency})`, weight: 1.2, align: 'right' as const })),
      ]),
      'Costs',
    );
    for (const r of rows) flow.row([r.wallet_label, assetLabel(r.asset), ...ROLL_FLOWS.map((f) => money(r.flows[f].cost))]);
    if (rows.length === 0) flow.row(['No lots or rows in the period']);
    flow.endTable();
    const off = rows.filter((r) => r.difference.units !== 0n).length;
    if (off > 0)
      note(
        flow,
        `${off} row(s) whose balance differs from the lots' closing quantity: an inflow without a value, or a disposal beyond the lots (txa check: rollforward_difference).`,
      );
  };
}
