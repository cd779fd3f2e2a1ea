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
 * - exchange (docs/accounting.md "Exchange accounts"): a withdrawal from an exchange account and
 *   the inflow of another wallet of the workspace, or the reverse. Matched automatically when both
 *   carry the same network hash (exchangeHashPair); else proposed when the inflow comes 0 to
 *   EXCHANGE_WINDOW_SECONDS after the outflow and is short of it by at most
 *   BRIDGE_TOLERANCE_PERCENT plus the outflow's network fee (withinExchangeTolerance).
 */
import { EXCHANGE_CHAIN } from '../core/chains.js';
import { compareDecimal, scaleOf, toBaseUnits } from '../core/money.js';
import type { TransferKind } from '../core/types.js';
import { rejectionKey, type FreeLeg, type Leg } from '../core/transfer-legs.js';

export { rejectionKey, type FreeLeg, type Leg };

export const BRIDGE_WINDOW_SECONDS = 3600;
export const BRIDGE_TOLERANCE_PERCENT = 1n;
/** How long after an exchange's withdrawal (or a deposit's sending) the inflow may arrive. */
export const EXCHANGE_WINDOW_SECONDS = 24 * 3600;
/** The widest window a proposal looks back: a range of proposals reads its rows from this long before it. */
export const PROPOSAL_WINDOW_SECONDS = EXCHANGE_WINDOW_SECONDS;

/** Whether a row is of an exchange account (docs/storage.md "Exchange wallets"). */
export const onExchange = (leg: Pick<Leg, 'chain'>): boolean => leg.chain === EXCHANGE_CHAIN;

export interface OwnWallet {
  id: string;
  chain: string;
  address: string;
}

/** A proposed or found pair: the outflow, then the inflow. */
export interface Pair<T = Leg> {
  out: T;
  in: T;
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

/** `exchange` when either leg is an exchange account's, else `internal` on one chain, `bridge` across chains. */
export function kindOf(a: Pick<Leg, 'chain'>, b: Pick<Leg, 'chain'>): TransferKind {
  if (onExchange(a) || onExchange(b)) return 'exchange';
  return a.chain === b.chain ? 'internal' : 'bridge';
}

/** A network transaction's hash, the only kind two ledgers' rows can share: an EVM chain's (0x + 64 hex digits) or a Bitcoin txid (64 hex digits). */
export const NETWORK_HASH = /^(?:0x)?[0-9a-fA-F]{64}$/;

/**
 * The counterpart of `leg` among rows carrying its network hash: the other side of the move
 * between an exchange account and another wallet (one of the two is an exchange's), opposite
 * direction, same asset, free, a pair the user can match and has not rejected; the exact amount
 * first, then the nearest in time, then the lowest id.
 */
export function exchangeHashPair(leg: Leg, others: Iterable<Leg>, rejected: (key: string) => boolean): Pair | undefined {
  if (!open(leg) || !movesValue(leg) || !NETWORK_HASH.test(leg.tx_hash)) return undefined;
  let best: Pair | undefined;
  for (const other of others) {
    if (other.tx_hash.toLowerCase() !== leg.tx_hash.toLowerCase() || (!onExchange(leg) && !onExchange(other))) continue;
    if (!open(other) || !movesValue(other) || (leg.transfer && other.transfer) || pairProblem(leg, other) !== null) continue;
    const pair = leg.direction === 'outflow' ? { out: leg, in: other } : { out: other, in: leg };
    if (rejected(rejectionKey(pair.out.id, pair.in.id))) continue;
    const mine = leg.direction === 'outflow' ? pair.in : pair.out;
    const theirs = best && (leg.direction === 'outflow' ? best.in : best.out);
    if (!theirs || closerTo(mine, theirs, leg)) best = pair;
  }
  return best;
}

/** Whether `a` fits `leg` better than `b`: the same amount, then nearer in time, then the lower id. */
function closerTo(a: Leg, b: Leg, leg: Leg): boolean {
  const exactA = a.amount === leg.amount;
  const exactB = b.amount === leg.amount;
  if (exactA !== exactB) return exactA;
  const da = Math.abs(a.ts - leg.ts);
  const db = Math.abs(b.ts - leg.ts);
  if (da !== db) return da < db;
  return a.id < b.id;
}

/**
 * Whether `received` is `sent` less at most BRIDGE_TOLERANCE_PERCENT of it and the network fee
 * (in the same coin): what reaches the other side of an exchange's withdrawal.
 */
export function withinExchangeTolerance(sent: string, received: string, fee: string | null | undefined): boolean {
  return exchangeFits({ amount: sent }, Number(sent), received, Number(received), () => fee);
}

/**
 * withinExchangeTolerance on amounts also given as binary floats (read once per row), asking for
 * the fee only when the answer turns on it: an inflow meets a day of an asset's outflows, and
 * floats settle the pairs far from a bound (their error is far below FLOAT_SLACK), the exact
 * sums only those near it. A fee is never negative, so an amount that fits without it fits.
 */
function exchangeFits<T extends { amount: string }>(
  out: T,
  sentValue: number,
  received: string,
  receivedValue: number,
  feeOf: (out: T) => string | null | undefined,
): boolean {
  const sent = out.amount;
  if (receivedValue > sentValue * (1 + FLOAT_SLACK)) return false;
  if (receivedValue >= sentValue * (1 - FLOAT_SLACK) && received !== sent && compareDecimal(received, sent) > 0) return false;
  if (fitsWithFee(sent, sentValue, received, receivedValue, '0', 0)) return true;
  const fee = feeOf(out);
  return fee !== null && fee !== undefined && fee !== '0' && fitsWithFee(sent, sentValue, received, receivedValue, fee, Number(fee));
}

/** received·100 ≥ sent·(100 − tolerance) − fee·100: floats far from the bound, exact units near it. */
function fitsWithFee(sent: string, sentValue: number, received: string, receivedValue: number, fee: string, feeValue: number): boolean {
  const bound = sentValue * Number(100n - BRIDGE_TOLERANCE_PERCENT);
  const got = (receivedValue + feeValue) * 100;
  if (got < bound * (1 - FLOAT_SLACK)) return false;
  if (got > bound * (1 + FLOAT_SLACK)) return true;
  const scale = Math.max(scaleOf(sent), scaleOf(received), scaleOf(fee));
  const s = toBaseUnits(sent, scale);
  const r = toBaseUnits(received, scale);
  return r * 100n >= s * (100n - BRIDGE_TOLERANCE_PERCENT) - toBaseUnits(fee, scale) * 100n;
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

/** A row in a proposal's window, with its amount as a binary float (read once: the pre-checks compare it many times). */
interface Entry<T> {
  leg: T;
  value: number;
}

/**
 * The outflows of one kind (chain or exchange) of one asset, oldest first, and those of each
 * amount (an inflow of the same amount is its best fit). Dropping the old ones moves a start, not
 * the items.
 */
class Outflows<T extends FreeLeg> {
  items: Entry<T>[] = [];
  start = 0;
  private readonly byAmount = new Map<string, Entry<T>[]>();

  add(entry: Entry<T>): void {
    this.items.push(entry);
    const same = this.byAmount.get(entry.leg.amount);
    if (same) same.push(entry);
    else this.byAmount.set(entry.leg.amount, [entry]);
  }

  /** The outflows of exactly `amount`, oldest first. */
  withAmount(amount: string): readonly Entry<T>[] {
    return this.byAmount.get(amount) ?? NONE;
  }

  dropBefore(ts: number): void {
    while (this.start < this.items.length && this.items[this.start]!.leg.ts < ts) this.forget(this.items[this.start++]!);
    if (this.start > 1024 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  remove(entry: Entry<T>): void {
    this.items.splice(this.items.indexOf(entry, this.start), 1);
    this.forget(entry);
  }

  private forget(entry: Entry<T>): void {
    const same = this.byAmount.get(entry.leg.amount)!;
    if (same.length === 1) this.byAmount.delete(entry.leg.amount);
    else same.splice(same.indexOf(entry), 1);
  }
}

const NONE: readonly never[] = [];

/** Outflows of one asset sent within the widest window: on chains, and from exchange accounts. */
interface Recent<T extends FreeLeg> {
  chain: Outflows<T>;
  exchange: Outflows<T>;
}

/** The windows of each asset (symbols compared in upper case), found by the symbol as a row spells it. */
class Windows<T extends FreeLeg> {
  private readonly byAsset = new Map<string, Recent<T>>();
  private readonly bySpelling = new Map<string, Recent<T>>();

  /** The window of `leg`'s asset, outflows sent longer than PROPOSAL_WINDOW_SECONDS before it dropped (rows come in time order). */
  at(leg: T): Recent<T> {
    let r = this.bySpelling.get(leg.token_symbol);
    if (!r) {
      const asset = leg.token_symbol.toUpperCase();
      r = this.byAsset.get(asset);
      if (!r) this.byAsset.set(asset, (r = { chain: new Outflows(), exchange: new Outflows() }));
      this.bySpelling.set(leg.token_symbol, r);
    }
    r.chain.dropBefore(leg.ts - PROPOSAL_WINDOW_SECONDS);
    r.exchange.dropBefore(leg.ts - PROPOSAL_WINDOW_SECONDS);
    return r;
  }
}

/** How a proposal reads what is not in a FreeLeg: the amount as a float, an outflow's network fee (asked for only when it counts). */
export interface ProposalReads<T> {
  value: (leg: T) => number;
  fee: (out: T) => string | null | undefined;
  rejected: (key: string) => boolean;
}

/**
 * Proposed bridges and exchange transfers among free rows that move value, given in time order
 * (ts, then id): each inflow takes the outflow of the same asset that fits it and is not rejected,
 * preferring the exact amount, then the nearest in time, then the lowest id; each row is proposed
 * once. Fits: from an exchange account within EXCHANGE_WINDOW_SECONDS and the exchange tolerance
 * (another wallet); on a chain, within BRIDGE_WINDOW_SECONDS on another chain for an inflow on a
 * chain (the bridge tolerance), within the exchange window for an inflow to an exchange account.
 * Memory holds one exchange window of outflows.
 */
export function* proposals<T extends FreeLeg>(rows: Iterable<T>, reads: ProposalReads<T>): Generator<Pair<T>> {
  const windows = new Windows<T>();
  for (const leg of rows) {
    const r = windows.at(leg);
    const into = { leg, value: reads.value(leg) };
    if (leg.direction === 'outflow') {
      (onExchange(leg) ? r.exchange : r.chain).add(into);
      continue;
    }
    // An outflow of the same amount beats any other, so those are tried first (a lookup); the
    // others only when none of them fits.
    const since = onExchange(leg) ? -Infinity : leg.ts - BRIDGE_WINDOW_SECONDS;
    let best = closestFit(r.exchange.withAmount(leg.amount), 0, -Infinity, into, reads, undefined, true);
    best = closestFit(r.chain.withAmount(leg.amount), 0, since, into, reads, best, true);
    if (!best) {
      best = closestFit(r.exchange.items, r.exchange.start, -Infinity, into, reads, undefined, false);
      best = closestFit(r.chain.items, r.chain.start, since, into, reads, best, false);
    }
    if (best) {
      (onExchange(best.leg) ? r.exchange : r.chain).remove(best);
      yield { out: best.leg, in: leg };
    }
  }
}

/**
 * The closest of `list[from…]` (oldest first) sent at or after `since` that fits `into`, or
 * `best` when none is closer: of one class (`exact`: the same amount as the inflow; else the
 * others), the latest, then the lowest id. Read newest first, so the walk stops at the first
 * outflow older than the best: none after it is closer.
 */
function closestFit<T extends FreeLeg>(
  list: readonly Entry<T>[],
  from: number,
  since: number,
  into: Entry<T>,
  reads: ProposalReads<T>,
  best: Entry<T> | undefined,
  exact: boolean,
): Entry<T> | undefined {
  for (let i = list.length - 1; i >= from; i--) {
    const out = list[i]!;
    if (out.leg.ts < since || (best && out.leg.ts < best.leg.ts)) break;
    if (best && out.leg.ts === best.leg.ts && out.leg.id > best.leg.id) continue;
    if (!exact && out.leg.amount === into.leg.amount) continue;
    if (proposable(out, into, reads) && !reads.rejected(rejectionKey(out.leg.id, into.leg.id))) best = out;
  }
  return best;
}

/** proposals() over Legs, any row: the linked ones and those that move nothing are passed over; fees as withNetworkFees set them. */
export function* bridgeCandidates(rows: Iterable<Leg>, rejected: (key: string) => boolean): Generator<Pair> {
  const free = (function* () {
    for (const leg of rows) if (leg.transfer === null && movesValue(leg)) yield leg;
  })();
  yield* proposals(free, { value: (leg) => Number(leg.amount), fee: (out) => out.fee, rejected });
}

/** Whether an outflow and a later inflow are a proposal: a bridge, or a move to or from an exchange account. */
function proposable<T extends FreeLeg>(out: Entry<T>, into: Entry<T>, reads: ProposalReads<T>): boolean {
  const a = out.leg;
  const b = into.leg;
  if (onExchange(a) || onExchange(b)) {
    return a.wallet_id !== b.wallet_id && b.ts - a.ts <= EXCHANGE_WINDOW_SECONDS && exchangeFits(a, out.value, b.amount, into.value, reads.fee);
  }
  return a.chain !== b.chain && b.ts - a.ts <= BRIDGE_WINDOW_SECONDS && bridgeFits(a.amount, out.value, b.amount, into.value);
}

/** withinTolerance, with floats settling the amounts far from both bounds (received ≤ sent, received ≥ 99 % of sent). */
function bridgeFits(sent: string, sentValue: number, received: string, receivedValue: number): boolean {
  if (receivedValue > sentValue * (1 + FLOAT_SLACK)) return false;
  const least = (sentValue * Number(100n - BRIDGE_TOLERANCE_PERCENT)) / 100;
  if (receivedValue < least * (1 - FLOAT_SLACK)) return false;
  if (receivedValue < sentValue * (1 - FLOAT_SLACK) && receivedValue > least * (1 + FLOAT_SLACK)) return true;
  return withinTolerance(sent, received);
}

/** Relative error allowed for an amount read as a binary float: far above a double's, far below the tolerance. */
const FLOAT_SLACK = 1e-9;

function byId(a: Leg, b: Leg): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
