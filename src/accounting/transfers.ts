/**
 * Own transfers (docs/accounting.md "Own transfers"): which rows of a workspace are the legs of one
 * movement between two of its wallets. Pure: the engine reads the rows and writes the links.
 *
 * - internal (matched automatically): an outflow of one wallet and an inflow of another with the
 *   same chain, tx hash, token and amount. Both legs of one transaction carry its block's time, so
 *   the engine hands the rows of one timestamp together (sameTimePairs). A row whose counterparty
 *   is another wallet of the workspace on its chain, without that leg in the ledger, is a one-leg
 *   transfer (oneLegWallet).
 * - bridge (only proposed): an outflow on one chain and an inflow of the same asset on another,
 *   received within BRIDGE_WINDOW_SECONDS and short of the amount sent by at most
 *   BRIDGE_TOLERANCE_PERCENT (the bridge's fee). The user confirms or rejects each proposal.
 */
import { compareDecimal, scaleOf, toBaseUnits } from '../core/money.js';
import { rejectionKey, type Leg } from '../core/transfer-legs.js';

export { rejectionKey, type Leg };

export const BRIDGE_WINDOW_SECONDS = 3600;
export const BRIDGE_TOLERANCE_PERCENT = 1n;

export interface OwnWallet {
  id: string;
  chain: string;
  address: string;
}

/** A proposed or found pair: the outflow, then the inflow. */
export interface Pair {
  out: Leg;
  in: Leg;
}

/** Fees and zero amounts (approvals, failed calls) move nothing to match. */
export function movesValue(leg: Pick<Leg, 'type' | 'amount'>): boolean {
  return leg.type !== 'fee' && leg.amount !== '0';
}

/** One asset: on one chain the same token; across chains the same symbol (case-insensitive). */
export function sameAsset(a: Leg, b: Leg): boolean {
  if (a.chain === b.chain) return a.token_address === b.token_address && a.token_symbol === b.token_symbol;
  return a.token_symbol.toUpperCase() === b.token_symbol.toUpperCase();
}

/** Why two rows cannot be the legs of one own transfer (a user's match), or null when they can. */
export function pairProblem(a: Leg, b: Leg): string | null {
  if (a.id === b.id) return 'a transaction cannot be its own counterpart';
  if (a.direction === b.direction) return `both transactions are ${a.direction}s; an own transfer is one outflow and one inflow`;
  if (a.wallet_id === b.wallet_id) return 'both transactions are in the same wallet; an own transfer moves between two wallets';
  if (!sameAsset(a, b)) return `the transactions move different tokens (${a.token_symbol} on ${a.chain}, ${b.token_symbol} on ${b.chain})`;
  const [out, into] = a.direction === 'outflow' ? [a, b] : [b, a];
  if (compareDecimal(into.amount, out.amount) > 0) return `the inflow (${into.amount}) is more than the outflow (${out.amount})`;
  return null;
}

/** `internal` on one chain, `bridge` across chains. */
export function kindOf(a: Leg, b: Leg): 'internal' | 'bridge' {
  return a.chain === b.chain ? 'internal' : 'bridge';
}

/** Whether a leg can still get a counterpart: free, or alone in its transfer. */
const open = (leg: Leg) => leg.transfer === null || leg.transfer.legs === 1;

/**
 * The internal transfers among rows of one timestamp: outflow and inflow of two wallets with the
 * same chain, hash, token and amount, not rejected. Each row pairs at most once; an outflow takes
 * the inflow whose wallet it names as receiver first, then the lowest id.
 */
export function sameTimePairs(rows: Leg[], wallets: Map<string, OwnWallet>, rejected: (key: string) => boolean): Pair[] {
  const outs = rows.filter((r) => r.direction === 'outflow' && movesValue(r) && open(r)).sort(byId);
  const ins = rows.filter((r) => r.direction === 'inflow' && movesValue(r) && open(r)).sort(byId);
  const taken = new Set<string>();
  const pairs: Pair[] = [];
  for (const out of outs) {
    const fits = ins.filter(
      (i) =>
        !taken.has(i.id) &&
        i.wallet_id !== out.wallet_id &&
        i.chain === out.chain &&
        i.tx_hash === out.tx_hash &&
        sameAsset(out, i) &&
        i.amount === out.amount &&
        !(out.transfer && i.transfer) &&
        !rejected(rejectionKey(out.id, i.id)),
    );
    const named = fits.find((i) => wallets.get(i.wallet_id)?.address === out.to_address);
    const into = named ?? fits[0];
    if (!into) continue;
    taken.add(into.id);
    pairs.push({ out, in: into });
  }
  return pairs;
}

/** The other own wallet a free row moves to or from, on its chain: the one-leg transfer it is. */
export function oneLegWallet(leg: Leg, byAddress: Map<string, OwnWallet>): OwnWallet | undefined {
  return leg.transfer === null && movesValue(leg) ? counterpartyWallet(leg, byAddress) : undefined;
}

/** The other own wallet a row's counterparty (the recipient of an outflow, the sender of an inflow) is, on its chain. */
export function counterpartyWallet(
  row: Pick<Leg, 'chain' | 'from_address' | 'to_address' | 'wallet_id'> & { direction: string },
  byAddress: Map<string, OwnWallet>,
): OwnWallet | undefined {
  const other = byAddress.get(addressKey(row.chain, row.direction === 'outflow' ? row.to_address : row.from_address));
  return other && other.id !== row.wallet_id ? other : undefined;
}

export const addressKey = (chain: string, address: string) => `${chain}\0${address.toLowerCase()}`;

/**
 * Whether a new row can be a leg at all, before its timestamp's rows are read: it moves value, and
 * either its chain has another own wallet (a pair) or its counterparty is one (one leg).
 */
export function mayBeLeg(
  row: Pick<Leg, 'chain' | 'type' | 'amount' | 'from_address' | 'to_address' | 'wallet_id'> & { direction: string },
  walletsOnChain: (chain: string) => number,
  byAddress: Map<string, OwnWallet>,
): boolean {
  if (!movesValue(row)) return false;
  return walletsOnChain(row.chain) > 1 || counterpartyWallet(row, byAddress) !== undefined;
}

/** Whether `received` is `sent` less at most the bridge tolerance. */
export function withinTolerance(sent: string, received: string): boolean {
  if (sent === received) return true;
  // Decimal magnitudes settle most pairs without BigInt (a bridge check compares every inflow with
  // an hour of outflows): a received amount of more digits exceeds the sent one, and one of two
  // digits fewer is below a tenth of it.
  const gap = magnitude(sent) - magnitude(received);
  if (gap < 0 || gap > 1) return false;
  const scale = Math.max(scaleOf(sent), scaleOf(received));
  const s = toBaseUnits(sent, scale);
  const r = toBaseUnits(received, scale);
  return r <= s && r * 100n >= s * (100n - BRIDGE_TOLERANCE_PERCENT);
}

/** ⌊log10 x⌋ + 1 of a positive canonical decimal: its integer digits, or minus the zeros that lead its fraction. */
function magnitude(canonical: string): number {
  const dot = canonical.indexOf('.');
  const int = dot < 0 ? canonical : canonical.slice(0, dot);
  if (int !== '0') return int.length;
  let i = dot + 1;
  while (canonical[i] === '0') i++;
  return dot + 1 - i;
}

/**
 * Proposed bridges among free rows given in time order: each inflow takes the outflow of the same
 * asset on another chain sent at most BRIDGE_WINDOW_SECONDS before it, within tolerance and not
 * rejected, preferring the exact amount, then the nearest in time, then the lowest id; each row
 * is proposed once. Memory holds one window of outflows.
 */
export function* bridgeCandidates(rows: Iterable<Leg>, rejected: (key: string) => boolean): Generator<Pair> {
  const recent = new Map<string, Leg[]>();
  for (const leg of rows) {
    if (leg.transfer !== null || !movesValue(leg)) continue;
    const asset = leg.token_symbol.toUpperCase();
    let window = recent.get(asset);
    if (!window) recent.set(asset, (window = []));
    // Outflows arrive in time order: the ones sent too long ago are at the front.
    while (window.length > 0 && window[0]!.ts < leg.ts - BRIDGE_WINDOW_SECONDS) window.shift();
    if (leg.direction === 'outflow') {
      window.push(leg);
      continue;
    }
    let best: Leg | undefined;
    for (const out of window) {
      if (out.chain === leg.chain || !withinTolerance(out.amount, leg.amount) || rejected(rejectionKey(out.id, leg.id))) continue;
      if (!best || closer(out, best, leg)) best = out;
    }
    if (best) {
      window.splice(window.indexOf(best), 1);
      yield { out: best, in: leg };
    }
  }
}

/** Relative error allowed for an amount read as a binary float: far above a double's, far below the tolerance. */
const FLOAT_SLACK = 1e-9;

/**
 * The rows that may be legs of a proposed bridge, found from each free row's time, direction,
 * chain, symbol and amount as a binary float, given in the order bridgeCandidates reads them: an
 * inflow and each outflow of its window (same asset, another chain) that its amount may fit are
 * kept. Every row bridgeCandidates could pair is kept, and a row that fits no other never changes
 * what it proposes, so it proposes the same bridges from the kept rows alone, read in full
 * (bench/RESULTS.md "Session 7, txa check": a whole-ledger pass reads a fraction of the rows).
 */
export class BridgeSieve {
  readonly kept = new Set<number>();
  private readonly recent = new Map<string, { key: number; ts: number; chain: string; amount: number }[]>();
  private lastTs = -Infinity;

  /** One free row that moves value, by its key (the caller's row id), in time order. */
  add(key: number, ts: number, inflow: boolean, chain: string, symbol: string, amount: number): void {
    if (ts < this.lastTs) throw new Error('BridgeSieve: rows out of time order');
    this.lastTs = ts;
    const asset = symbol.toUpperCase();
    let window = this.recent.get(asset);
    if (!window) this.recent.set(asset, (window = []));
    while (window.length > 0 && window[0]!.ts < ts - BRIDGE_WINDOW_SECONDS) window.shift();
    if (!inflow) {
      window.push({ key, ts, chain, amount });
      return;
    }
    // withinTolerance, loosened by FLOAT_SLACK: received ≤ sent and received ≥ (1 − tolerance) × sent.
    const low = amount * (1 - FLOAT_SLACK);
    const high = (amount * 100 * (1 + FLOAT_SLACK)) / (100 - Number(BRIDGE_TOLERANCE_PERCENT));
    for (const out of window) {
      if (out.chain === chain || out.amount < low || out.amount > high) continue;
      this.kept.add(out.key);
      this.kept.add(key);
    }
  }
}

/** Whether outflow `a` fits inflow `leg` better than `b`: exact amount, then nearer in time, then lower id. */
function closer(a: Leg, b: Leg, leg: Leg): boolean {
  const exactA = a.amount === leg.amount;
  const exactB = b.amount === leg.amount;
  if (exactA !== exactB) return exactA;
  if (a.ts !== b.ts) return a.ts > b.ts;
  return a.id < b.id;
}

function byId(a: Leg, b: Leg): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
