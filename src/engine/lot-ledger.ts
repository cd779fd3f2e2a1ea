/**
 * The lots commands' one door to the tax ledger (docs/lots.md): the pool and the balances at a
 * moment, the open lots at a moment in the scope that applies then, and what the ledger takes
 * from the store (wallet order, the recorded allocation, the picks). Values are in the
 * workspace's currency, as stored; the rows are the tax reports' (engine/ledger-rows.ts).
 */
import type { Engine } from './engine.js';
import { identity } from './rates.js';
import { ledgerRows, loadAssetTable } from './ledger-rows.js';
import { withSpamResolved } from '../store/transactions.js';
import { workspaceWalletIds } from '../store/workspace-wallets.js';
import { allocationLines, getAllocationHeader, listPicks } from '../store/lots.js';
import { isoSeconds } from '../core/clock.js';
import type { CostBasis } from '../core/export-values.js';
import { quantityText } from '../accounting/quantity.js';
import { TaxLedger, TRANSITION_AT, type LedgerRow, type LotPick, type TaxOptions } from '../accounting/tax-ledger.js';
import type { AllocatedLot, PoolLot, WalletBalance } from '../accounting/allocation.js';

/** The workspace's rows before `endTs` (Unix seconds, exclusive), spam left out, as the tax ledger reads them. */
export function rowsBefore(engine: Engine, ws: string, endTs: number): Iterable<{ tx: LedgerRow; reported: boolean }> {
  return ledgerRows(engine, ws, withSpamResolved(engine.db, ws, { endTs, spam: 'exclude' }), identity);
}

export interface Pool {
  pool: PoolLot[];
  balances: WalletBalance[];
  /** The wallets in the order they were added to the workspace. */
  walletOrder: string[];
}

/** The lots left in the pool at `atTs` when the pooled years used `method`, and what each wallet holds then. */
export function poolAt(engine: Engine, ws: string, atTs: number, method: CostBasis): Pool {
  const books = taxBooks(engine, ws);
  const ledger = new TaxLedger({ method, scope: 'universal', assets: loadAssetTable(engine), walletOrder: books.walletOrder, picks: books.picks });
  for (const { tx } of rowsBefore(engine, ws, atTs)) ledger.add(tx, false);
  ledger.end();
  return { ...ledger.pooled(), walletOrder: books.walletOrder };
}

/** An open lot, its wallet null in the pool; quantity an exact decimal. */
export interface HeldLot {
  walletId: string | null;
  assetKey: string;
  assetSymbol: string;
  lotId: string;
  quantity: string;
  acquiredAt: string;
  costCents: bigint;
}

/** The open lots at a moment, and whether the pool was split between the wallets by then (and by which allocation). */
export interface HeldLots {
  lots: HeldLot[];
  /** The scope of the moment: `universal` before the transition, `wallet` from it. */
  scope: 'universal' | 'wallet';
  transition: 'recorded' | 'computed' | null;
}

/**
 * The lots open after every row before `endTs` (Unix seconds, exclusive), in the scope of the
 * moment `moment` (default the last second before `endTs`): pooled before the transition, per
 * wallet from it, through the recorded allocation or, without one, the fifo order's; disposals
 * take lots by `method` (`specific`: the picks, then FIFO).
 */
export function openLotsAt(engine: Engine, ws: string, endTs: number, method: CostBasis, moment = endTs - 1): HeldLots {
  const options = ledgerOptions(engine, ws, method);
  const ledger = new TaxLedger(options);
  for (const { tx } of rowsBefore(engine, ws, endTs)) ledger.add(tx, false);
  // The moment reaching the transition splits the pool even when no row of it or after it came.
  const split = isoSeconds(moment) >= (options.transitionAt ?? TRANSITION_AT);
  ledger.end(isoSeconds(moment));
  const lots = ledger.openLots().map((l) => ({
    walletId: l.walletId,
    assetKey: l.asset.key,
    assetSymbol: l.asset.symbol,
    lotId: l.lotId,
    quantity: quantityText(l.quantity),
    acquiredAt: l.acquiredAt,
    costCents: l.costCents,
  }));
  return { lots, scope: split ? 'wallet' : 'universal', transition: ledger.transition?.source ?? null };
}

/** The tax ledger's options for `method` with what the workspace keeps (taxBooks), scope by year. */
export function ledgerOptions(engine: Engine, ws: string, method: CostBasis): TaxOptions {
  const books = taxBooks(engine, ws);
  return {
    method,
    assets: loadAssetTable(engine),
    walletOrder: books.walletOrder,
    picks: books.picks,
    allocation: { recorded: books.allocation },
    ...(books.transitionAt === undefined ? {} : { transitionAt: books.transitionAt }),
  };
}

export interface TaxBooks {
  walletOrder: string[];
  picks: Map<string, LotPick[]>;
  /** null when none is recorded: the ledger computes the fifo order's (and a report says so). */
  allocation: AllocatedLot[] | null;
  /** The recorded allocation's moment, when one is recorded (`--at`). */
  transitionAt?: string;
}

/**
 * What a tax ledger takes from the workspace (docs/lots.md "In reports"): its wallets in the
 * order they were added, the picks of specific identification by disposal id in the order
 * recorded, and the recorded allocation with its moment.
 */
export function taxBooks(engine: Engine, ws: string): TaxBooks {
  const header = getAllocationHeader(engine.db, ws);
  const books: TaxBooks = { walletOrder: workspaceWalletIds(engine.db, ws), picks: picksFor(engine, ws), allocation: recordedAllocation(engine, ws) };
  if (header) books.transitionAt = `${header.at}T00:00:00Z`;
  return books;
}

/** The recorded allocation as the ledger takes it; null when none is recorded. */
export function recordedAllocation(engine: Engine, ws: string): AllocatedLot[] | null {
  if (!getAllocationHeader(engine.db, ws)) return null;
  return allocationLines(engine.db, ws).map((l) => ({
    walletId: l.wallet_id,
    assetKey: l.asset_key,
    assetSymbol: l.asset_symbol,
    lotId: l.lot_id ?? '',
    quantity: l.quantity,
    acquiredAt: l.acquired_at ?? '',
    costCents: l.cost_cents,
  }));
}

/** The picks of every disposal of the workspace, by disposal id, in the order recorded (the ledger's `picks`). */
export function picksFor(engine: Engine, ws: string): Map<string, LotPick[]> {
  const out = new Map<string, LotPick[]>();
  for (const p of listPicks(engine.db, ws)) {
    let list = out.get(p.disposal_id);
    if (!list) out.set(p.disposal_id, (list = []));
    list.push({ lotId: p.lot_id, quantity: p.quantity, recordedAt: p.recorded_at });
  }
  return out;
}
