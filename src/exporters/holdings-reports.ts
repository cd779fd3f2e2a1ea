/**
 * `positions` and `rollforward` as CSV or JSON (docs/reports.md "Positions and roll-forward"):
 * the lots held at a day, and per wallet and asset what the period did to them. One pass over
 * the ledger's rows; the rows are written at the end (a few per wallet and asset, or per open lot).
 */
import { centsToNumber } from '../core/money.js';
import { quantityOf, quantityText, type Quantity } from '../accounting/quantity.js';
import { TaxLedger, type LedgerRow } from '../accounting/tax-ledger.js';
import { openBooks, type OpenLot } from '../accounting/open-lots.js';
import { decimalPrice, positionsOf, rowPrice, type Position, type UnitPrice } from '../accounting/positions.js';
import { ROLL_FLOWS, RollForward, type RollRow } from '../accounting/rollforward.js';
import { csvLine } from './csv-text.js';
import { csvRowWriter, writeLedgerReport, type Row } from './tax-report.js';
import type { ExportJob, ExportWriter } from './types.js';
import type { OutFile } from './chunked-file.js';
import { taxOptionsOf } from './tax-options.js';
import { assetLabel } from '../accounting/assets.js';

export const POSITIONS_COLUMNS = [
  'wallet_label',
  'asset',
  'lot',
  'quantity',
  'date_acquired',
  'cost_basis',
  'market_value',
  'unrealized_gain',
  'term_if_sold',
] as const;

export const ROLLFORWARD_COLUMNS = [
  'wallet_label',
  'asset',
  'opening_quantity',
  'opening_cost',
  'acquired_quantity',
  'acquired_cost',
  'income_quantity',
  'income_value',
  'disposed_quantity',
  'disposed_cost',
  'transfer_in_quantity',
  'transfer_in_cost',
  'transfer_out_quantity',
  'transfer_out_cost',
  'closing_quantity',
  'closing_cost',
  'balance',
  'difference',
] as const;

const qty = (q: Quantity) => quantityText(q);

/** The day positions are shown at: the `at` option, else the period's end. */
export function positionsDay(job: ExportJob): string | null {
  return job.options.at ?? job.period.end;
}

function quantityOfRow(tx: LedgerRow): Quantity | null {
  try {
    return quantityOf(tx.amount, tx.token.decimals);
  } catch {
    return null;
  }
}

function positionRow(p: Position, labels: Map<string, string>): Row {
  return {
    wallet_label: p.lot.scope === '*' ? 'All wallets' : (labels.get(p.lot.scope) ?? p.lot.scope),
    asset: assetLabel(p.lot.asset),
    lot: p.lot.lotId,
    quantity: qty(p.lot.quantity),
    date_acquired: p.lot.acquiredAt.slice(0, 10),
    cost_basis: p.lot.costCents,
    market_value: p.marketValue,
    unrealized_gain: p.unrealizedGain,
    term_if_sold: p.termIfSold,
  };
}

export function rollRow(r: RollRow): Row {
  const row: Row = { wallet_label: r.wallet_label, asset: assetLabel(r.asset) };
  for (const f of ROLL_FLOWS) {
    row[`${f}_quantity`] = qty(r.flows[f].quantity);
    row[f === 'income' ? 'income_value' : `${f}_cost`] = r.flows[f].cost;
  }
  row.balance = qty(r.balance);
  row.difference = qty(r.difference);
  return row;
}

/** The roll-forward of the job's period: every ledger row fed once, then its rows (of the filter's wallets, when it names some). */
export function rollForwardOf(job: ExportJob): { roll: RollForward; feed: (tx: LedgerRow) => void; rows: () => RollRow[] } {
  const roll = new RollForward(taxOptionsOf(job), job.period.start, job.period.end);
  const wallets = job.filters.wallet_ids as string[] | undefined;
  return {
    roll,
    feed: (tx) => roll.add(tx),
    rows: () => roll.rows().filter((r) => wallets === undefined || r.scope === '*' || wallets.includes(r.scope)),
  };
}

const jsonText = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? centsToNumber(Number(x)) : x));

/**
 * A report table as CSV or JSON: its rows as they come, then (the rows' sums known) its totals and
 * notes. CSV totals: the label in the first column, the value in `valueColumn`.
 */
async function writeTable(
  job: ExportJob,
  file: OutFile,
  key: string,
  columns: readonly string[],
  valueColumn: string,
  rows: Iterable<Row>,
  after: () => { totals: [string, string, Row[string]][]; notes: string[] },
): Promise<void> {
  if (job.format === 'json') {
    const head = { id: job.exportId, format: job.format, report_type: job.reportType, created_at: job.createdAt, filters: job.filters, options: job.options };
    file.add(`{"export":${jsonText(head)},${JSON.stringify(key)}:[`);
    let first = true;
    for (const r of rows) {
      if (file.add(`${first ? '' : ','}\n${jsonText(r)}`)) await file.flush();
      first = false;
    }
    const { totals, notes } = after();
    const summary = job.options.include_summary ? `,"totals":${jsonText(Object.fromEntries(totals.map(([, k, v]) => [k, v])))}` : '';
    file.add(`\n]${summary},"notes":${JSON.stringify(notes)}}\n`);
    return;
  }
  const write = csvRowWriter(columns);
  file.add(csvLine([...columns]));
  for (const r of rows) if (file.add(write(r))) await file.flush();
  const { totals, notes } = after();
  if (!job.options.include_summary) return;
  file.add(csvLine(columns.map(() => '')));
  for (const [label, , value] of totals) file.add(write({ [columns[0]!]: label, [valueColumn]: value }));
  for (const note of notes) file.add(write({ [columns[0]!]: `Note: ${note}` }));
}

const writePositions: ExportWriter = (job, destPath) => {
  const feedAll = positionsFeed(job);
  return writeLedgerReport(job, destPath, {
    start: () => {},
    lines: (tx) => {
      feedAll.feed(tx);
      return NONE;
    },
    end: (file) => {
      const result = feedAll.finish();
      let cost = 0n;
      let value = 0n;
      let lots = 0;
      const rows = function* () {
        for (const p of result.positions()) {
          cost += p.lot.costCents;
          value += p.marketValue ?? 0n;
          lots++;
          yield positionRow(p, result.labels);
        }
      };
      return writeTable(job, file, 'positions', POSITIONS_COLUMNS, 'market_value', rows(), () => {
        const unpriced = result.unpriced();
        return {
          totals: [
            ['Total cost basis', 'cost_basis', cost],
            ['Total market value', 'market_value', unpriced.length > 0 ? null : value],
            ['Open lots', 'lots', String(lots)],
          ],
          notes: unpriced.length > 0 ? [`no price on ${result.day} for ${unpriced.join(', ')}: market value and unrealized gain left empty`] : [],
        };
      });
    },
  });
};

const NONE: string[] = [];

export interface PositionsResult {
  day: string | null;
  labels: Map<string, string>;
  /** The positions, book by book (by wallet label, then asset), oldest lot first in each. */
  positions(): Generator<Position>;
  /** Assets with lots and no price that day (symbols), once `positions()` has run. */
  unpriced(): string[];
}

/**
 * The open lots at the end of the day, valued at the day's price of their asset: the last valued
 * row of the asset that day (its value over its quantity), else a price imported for the symbol
 * that day in the report's currency (`txa prices import`), else none (a note names the asset).
 */
export function positionsFeed(job: ExportJob) {
  const day = positionsDay(job);
  const assets = job.assets();
  // The lots at the end of the day: the rows up to then, the ledger ended then.
  const until = day === null ? null : `${day}T23:59:59Z`;
  const ledger = new TaxLedger(taxOptionsOf(job));
  const labels = new Map<string, string>();
  const prices = new Map<string, UnitPrice>();
  return {
    feed(tx: LedgerRow): void {
      labels.set(tx.wallet_id, tx.wallet_label);
      if (day !== null && tx.fiat_cents !== null && tx.type !== 'approval' && tx.timestamp.startsWith(day)) {
        const q = quantityOfRow(tx);
        const p = q && rowPrice(tx.fiat_cents, q);
        if (p) prices.set(assets.assetOf(tx.chain, tx.token).key, p);
      }
      // Only the lots are read: no row is reported (no line is made).
      if (until === null || tx.timestamp <= until) ledger.add(tx, false);
    },
    finish(): PositionsResult {
      const wallets = job.filters.wallet_ids as string[] | undefined;
      const labelOf = (scope: string) => (scope === '*' ? 'All wallets' : (labels.get(scope) ?? scope));
      ledger.end(until ?? undefined);
      const books = openBooks(ledger)
        .filter((b) => b.scope !== 'transit' && (wallets === undefined || b.scope === '*' || wallets.includes(b.scope)))
        .sort((a, b) => labelOf(a.scope).localeCompare(labelOf(b.scope)) || a.asset.symbol.localeCompare(b.asset.symbol));
      const unpriced = new Set<string>();
      const priceOf = (lot: OpenLot): UnitPrice | null => {
        const fromRows = prices.get(lot.asset.key);
        if (fromRows) return fromRows;
        const cached = job.cachedPrice(lot.asset.symbol, day!);
        const p = cached === null ? null : decimalPrice(cached);
        if (p === null) unpriced.add(lot.asset.symbol);
        return p;
      };
      return {
        day,
        labels,
        *positions() {
          if (day === null) return;
          for (const book of books) yield* positionsOf(book.lots, day, priceOf);
        },
        unpriced: () => [...unpriced].sort(),
      };
    },
  };
}

const writeRollForward: ExportWriter = (job, destPath) => {
  const { rows: rollRows, feed } = rollForwardOf(job);
  return writeLedgerReport(job, destPath, {
    start: () => {},
    lines: (tx) => {
      feed(tx);
      return NONE;
    },
    end: (file) => writeRollTable(job, file, rollRows()),
  });
};

/** The roll-forward's table, its rows known: the rows, then (with the summary) its total and note. */
export function writeRollTable(job: ExportJob, file: OutFile, rows: RollRow[]): Promise<void> {
  const off = rows.filter((r) => r.difference.units !== 0n).length;
  const notes = off > 0 ? [`${off} wallet and asset row(s) whose balance differs from the lots' closing quantity (txa check: rollforward_difference)`] : [];
  return writeTable(job, file, 'rows', ROLLFORWARD_COLUMNS, 'difference', rows.map(rollRow), () => ({
    totals: [['Rows with a difference', 'rows_with_difference', String(off)]],
    notes,
  }));
}

/** The writer of a `positions` or `rollforward` table. */
export const writeHoldingsReport: ExportWriter = (job, destPath) => (job.reportType === 'positions' ? writePositions : writeRollForward)(job, destPath);
