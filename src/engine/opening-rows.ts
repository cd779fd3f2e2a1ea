/**
 * Opening lots in the tax ledger's stream (docs/lots.md "Opening lots"): each is a synthetic
 * LedgerRow, an inflow of type `opening` at 00:00:00 UTC of its day in its wallet valued at its
 * cost, merged into the rows in time order. It is never written to transactions, so lists,
 * balances and summaries never see it; the ledger, and everything read from it (the tax and
 * income reports, `lots list`, the transition allocation, positions), takes it as an acquisition.
 */
import type { Engine } from './engine.js';
import type { Convert } from './rates.js';
import { parseDay } from '../core/dates.js';
import { OPENING_TYPE, type LedgerRow } from '../accounting/ledger-row.js';
import { getWallet } from '../store/ledger.js';
import { hasOpeningLots, listOpeningLots } from '../store/opening-lots.js';

export { OPENING_TYPE, isOpeningRow } from '../accounting/ledger-row.js';

/** An opening lot as the roll-forward and other readers take it: what it held at its day, in the workspace's currency. */
export interface OpeningLotFact {
  id: string;
  walletId: string;
  walletLabel: string;
  chain: string;
  token: { symbol: string; address: string | null; decimals: number };
  quantity: string;
  /** `YYYY-MM-DD`. */
  day: string;
  /** Unix seconds of the day's start. */
  ts: number;
  costCents: bigint;
  note: string;
  importId: string;
}

/**
 * The workspace's opening lots dated before `endTs` (Unix seconds, exclusive; all without), by
 * day. The roll-forward report shows these as its opening lines (quantity and cost at their day).
 */
export function openingLotsFor(engine: Engine, ws: string, endTs?: number): OpeningLotFact[] {
  if (!hasOpeningLots(engine.db, ws)) return [];
  const wallets = new Map<string, { label: string; chain: string }>();
  const out: OpeningLotFact[] = [];
  for (const r of listOpeningLots(engine.db, ws)) {
    const ts = parseDay(r.acquired_on)!;
    if (endTs !== undefined && ts >= endTs) continue;
    let w = wallets.get(r.wallet_id);
    if (!w) {
      const row = getWallet(engine.db, ws, r.wallet_id)!;
      wallets.set(r.wallet_id, (w = { label: row.label, chain: row.chain }));
    }
    out.push({
      id: r.id,
      walletId: r.wallet_id,
      walletLabel: w.label,
      chain: w.chain,
      token: { symbol: r.token_symbol, address: r.token_address, decimals: r.token_decimals },
      quantity: r.quantity,
      day: r.acquired_on,
      ts,
      costCents: r.cost_cents,
      note: r.note,
      importId: r.import_id,
    });
  }
  return out;
}

/** The opening lots before `endTs` as the ledger's rows, their cost converted by `convert` at their day. */
export function openingLedgerRows(engine: Engine, ws: string, endTs: number | undefined, convert: Convert): LedgerRow[] {
  return openingLotsFor(engine, ws, endTs).map((o) => {
    const value = convert(Number(o.costCents), o.ts);
    return {
      id: o.id,
      timestamp: `${o.day}T00:00:00Z`,
      wallet_id: o.walletId,
      wallet_label: o.walletLabel,
      chain: o.chain,
      tx_hash: '',
      token: o.token,
      amount: o.quantity,
      direction: 'inflow',
      type: OPENING_TYPE,
      transfer: null,
      fiat_cents: value === null ? null : BigInt(value),
      income_tags: [],
    };
  });
}

/**
 * Merges opening rows (in time order) into a stream of rows in time order: an opening comes
 * before the first row of a later second, and with the rows of its own second (the ledger orders
 * a second's rows itself). `before` per row, `rest` at the end; never `reported` (an acquisition
 * makes no line of its own).
 */
export class OpeningMerge {
  private next = 0;

  constructor(private readonly openings: readonly LedgerRow[]) {}

  *before(tx: LedgerRow): Generator<{ tx: LedgerRow; reported: boolean }> {
    while (this.next < this.openings.length && this.openings[this.next]!.timestamp <= tx.timestamp) yield { tx: this.openings[this.next++]!, reported: false };
  }

  *rest(): Generator<{ tx: LedgerRow; reported: boolean }> {
    while (this.next < this.openings.length) yield { tx: this.openings[this.next++]!, reported: false };
    this.next = 0;
  }
}

/** `rows` with the openings merged in (OpeningMerge). */
export function* withOpenings(
  rows: Iterable<{ tx: LedgerRow; reported: boolean }>,
  openings: readonly LedgerRow[],
): Generator<{ tx: LedgerRow; reported: boolean }> {
  if (openings.length === 0) {
    yield* rows;
    return;
  }
  const merge = new OpeningMerge(openings);
  for (const r of rows) {
    yield* merge.before(r.tx);
    yield r;
  }
  yield* merge.rest();
}
