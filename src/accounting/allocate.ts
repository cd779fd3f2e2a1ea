/**
 * The allocation of the transition from one pool per asset to lots per wallet (docs/accounting.md
 * "Scope by year and the transition"): the lots left in the pool at a moment are assigned to the
 * wallets that hold the asset then, once. Pure, and apart from allocation.ts (which runs the
 * ledger to find the pool) so that the ledger can use it without importing its caller.
 *
 * Per asset, the pooled lots are taken in the order's sequence (`fifo` oldest first, `lifo`
 * newest first, `hifo` highest unit cost first, the oldest first among equal ones) and handed to
 * the wallets holding a positive balance of the asset, taken in wallet order (the order they were
 * added to the workspace); each wallet receives exactly its balance, a lot split between two
 * wallets keeping its id and dividing its cost by the pro-rating rule (lots.ts). A wallet holding
 * more than the pool has lots gets the rest as missing cost basis (lotId '' and costCents null);
 * lots no wallet's balance needs are left unassigned (the preparer's to explain).
 */
import { fromBaseUnits, normalizeDecimal, scaleOf, toBaseUnits } from '../core/money.js';
import { share } from './lots.js';

export type AllocationOrder = 'fifo' | 'lifo' | 'hifo';
export const ALLOCATION_ORDERS: readonly AllocationOrder[] = ['fifo', 'lifo', 'hifo'];

/** One pooled lot (what is left of it) at the transition. quantity is an exact decimal string. */
export interface PoolLot {
  assetKey: string;
  assetSymbol: string;
  /** The acquiring transaction's id (docs/accounting.md "Lots"). */
  lotId: string;
  quantity: string;
  acquiredAt: string;
  /** The cost of `quantity` (the lot's cost not yet used). */
  costCents: bigint;
  /** The lot's place in acquisition order (FIFO's); lots of one asset in the pool's order when absent. */
  seq?: number;
}

/** What a wallet holds of an asset at the transition: the sum of its rows. quantity is an exact decimal string (may be ≤ 0). */
export interface WalletBalance {
  walletId: string;
  assetKey: string;
  /** The asset's name in reports; when absent, the pool's lots name it. */
  assetSymbol?: string;
  quantity: string;
}

/** One pooled lot (or part) assigned to a wallet at the transition. quantity is an exact decimal string. */
export interface AllocatedLot {
  walletId: string;
  assetKey: string;
  assetSymbol: string;
  lotId: string;
  quantity: string;
  acquiredAt: string;
  /** null = missing cost basis. */
  costCents: bigint | null;
}

/** An exact decimal string (unsigned or negative) as units at `scale`. */
function unitsOf(quantity: string, scale: number): bigint {
  const canonical = normalizeDecimal(quantity);
  if (canonical === null) throw new RangeError(`'${quantity}' is not a quantity`);
  const negative = canonical.startsWith('-');
  const units = toBaseUnits(negative ? canonical.slice(1) : canonical, scale);
  return negative ? -units : units;
}

function scaleOfText(quantity: string): number {
  const canonical = normalizeDecimal(quantity);
  return canonical === null ? 0 : scaleOf(canonical.replace(/^-/, ''));
}

/** Whether lot `a` is handed out before lot `b` in `order` (a total order: acquisition order breaks ties). */
function before(order: AllocationOrder, a: Held, b: Held): number {
  const age = a.seq - b.seq;
  if (order === 'fifo') return age;
  if (order === 'lifo') return -age;
  // Unit cost by cross-multiplying: the higher first, the older among equals.
  const cmp = b.lot.costCents * a.units - a.lot.costCents * b.units;
  return cmp > 0n ? 1 : cmp < 0n ? -1 : age;
}

interface Held {
  lot: PoolLot;
  units: bigint;
  seq: number;
}

/** Per asset, the pooled lots in the order's sequence go to the wallets holding the asset, taken in walletOrder, each receiving exactly its balance; a wallet holding more than the pool has gets the rest as missing cost basis (lotId '' and costCents null). */
export function allocate(pool: PoolLot[], balances: WalletBalance[], walletOrder: string[], order: AllocationOrder): AllocatedLot[] {
  const rank = new Map(walletOrder.map((id, i) => [id, i]));
  const byWallet = (a: WalletBalance, b: WalletBalance) => {
    const ra = rank.get(a.walletId) ?? Number.MAX_SAFE_INTEGER;
    const rb = rank.get(b.walletId) ?? Number.MAX_SAFE_INTEGER;
    return ra !== rb ? ra - rb : a.walletId < b.walletId ? -1 : a.walletId > b.walletId ? 1 : 0;
  };
  const assets = [...new Set([...pool.map((l) => l.assetKey), ...balances.map((b) => b.assetKey)])].sort();
  const out: AllocatedLot[] = [];
  for (const assetKey of assets) {
    const lots = pool.filter((l) => l.assetKey === assetKey);
    const holders = balances.filter((b) => b.assetKey === assetKey).sort(byWallet);
    const symbol = lots[0]?.assetSymbol ?? holders.find((h) => h.assetSymbol !== undefined)?.assetSymbol ?? assetKey;
    const scale = Math.max(0, ...lots.map((l) => scaleOfText(l.quantity)), ...holders.map((h) => scaleOfText(h.quantity)));
    const queue: Held[] = lots
      .map((lot, i) => ({ lot, units: unitsOf(lot.quantity, scale), seq: lot.seq ?? i }))
      .filter((h) => h.units > 0n)
      .sort((a, b) => before(order, a, b));
    let next = 0;
    let used = 0n;
    for (const holder of holders) {
      let want = unitsOf(holder.quantity, scale);
      while (want > 0n && next < queue.length) {
        const h = queue[next]!;
        const q = want < h.units - used ? want : h.units - used;
        out.push({
          walletId: holder.walletId,
          assetKey,
          assetSymbol: symbol,
          lotId: h.lot.lotId,
          quantity: fromBaseUnits(q, scale),
          acquiredAt: h.lot.acquiredAt,
          costCents: share(h.lot.costCents, used, used + q, h.units),
        });
        used += q;
        want -= q;
        if (used === h.units) {
          next++;
          used = 0n;
        }
      }
      if (want > 0n) {
        out.push({
          walletId: holder.walletId,
          assetKey,
          assetSymbol: symbol,
          lotId: '',
          quantity: fromBaseUnits(want, scale),
          acquiredAt: '',
          costCents: null,
        });
      }
    }
  }
  return out;
}
