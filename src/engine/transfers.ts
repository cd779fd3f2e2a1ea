/**
 * Own transfers (docs/accounting.md "Own transfers"): matched automatically after each import (internal ones only),
 * proposed (bridges), confirmed or unmatched by the user. Which rows pair is decided by
 * accounting/transfers.ts; this module reads the rows, writes the links and emits
 * `transaction.updated` for every leg whose `transfer` changes.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { EXCHANGE_CHAIN } from '../core/chains.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { validateBody } from '../core/validate.js';
import { transferCreateSchema } from '../core/schemas.js';
import { paginationOf, parsePageParams } from '../core/pagination.js';
import { oneOf } from '../core/filters.js';
import type { Deleted, Page, QueryParams, Transfer, TransferMatchedBy } from '../core/types.js';
import {
  addressKey,
  EXCHANGE_WINDOW_SECONDS,
  exchangeHashPair,
  kindOf,
  NETWORK_HASH,
  onExchange,
  PROPOSAL_WINDOW_SECONDS,
  mayBeLeg,
  movesValue,
  oneLegWallet,
  pairProblem,
  rejectionKey,
  sameTimePairs,
  type Leg,
  type OwnWallet,
  type Pair,
} from '../accounting/transfers.js';
import {
  addRejection,
  canBeLeg,
  countTransfers,
  deleteTransfer,
  getTransfer,
  insertTransfer,
  legIds,
  legsAtTimes,
  legsById,
  legsInTimeOrder,
  exchangeLegsByHash,
  exchangeLegsWithHashes,
  exchangeNetworkHashes,
  legsByHashNear,
  legsWithHashes,
  listTransferRows,
  rejections,
  removeRejection,
  setLeg,
  setTransferMeta,
  type TransferRow,
} from '../store/transfers.js';
import type { MatchRow } from '../store/transactions.js';
import { derivedAddresses, walletAddresses } from '../store/ledger.js';
import { getTransaction } from './transactions.js';
import { changing } from './transaction-changes.js';
import { proposedBridges } from './bridges.js';

export const TRANSFER_STATUSES = ['matched', 'candidate'] as const;
const LIMIT_DEFAULT = 50;
const LIMIT_MAX = 200;

function ownWallets(engine: Engine, ws: string): { byId: Map<string, OwnWallet>; byAddress: Map<string, OwnWallet> } {
  const rows: OwnWallet[] = walletAddresses(engine.db, ws);
  const byId = new Map(rows.map((w) => [w.id, w]));
  // An xpub wallet's derived addresses name it too (as a counterparty); its own address stays its key.
  const byAddress = new Map([...rows, ...derivedAddresses(engine.db, ws)].map((w) => [addressKey(w.chain, w.address), byId.get(w.id)!]));
  return { byId, byAddress };
}

/** What linking reads of a leg: a proposal's legs are free rows (no `transfer`). */
type LinkLeg = Pick<Leg, 'id' | 'chain'> & Partial<Pick<Leg, 'transfer'>>;

/** Links a pair: a new transfer, or the other leg joins the one-leg transfer of one of them. */
function link(engine: Engine, ws: string, pair: Pair<LinkLeg>, matchedBy: TransferMatchedBy): string {
  const kind = kindOf(pair.out, pair.in);
  const existing = pair.out.transfer ?? pair.in.transfer;
  if (existing) {
    for (const leg of [pair.out, pair.in]) if (!leg.transfer) setLeg(engine.db, leg.id, existing.id);
    setTransferMeta(engine.db, existing.id, kind, matchedBy);
    return existing.id;
  }
  const id = newId('trf');
  insertTransfer(engine.db, { id, workspace_id: ws, kind, matched_by: matchedBy, created_at: nowIso() }, [pair.out.id, pair.in.id]);
  return id;
}

/**
 * Matches the internal transfers among the rows at the timestamps of the given rows (an import's)
 * that can be legs, or among every row of the workspace; then makes one-leg transfers of free
 * rows whose counterparty is another own wallet. Call inside a write transaction. Returns the
 * number of legs linked.
 */
export function autoMatch(engine: Engine, ws: string, rows?: Iterable<MatchRow>): number {
  const wallets = ownWallets(engine, ws);
  const rejected = rejections(engine.db, ws);
  const isRejected = (key: string) => rejected.has(key);
  const perChain = new Map<string, number>();
  for (const w of wallets.byId.values()) perChain.set(w.chain, (perChain.get(w.chain) ?? 0) + 1);
  const timestamps = (rs: Iterable<MatchRow>) => {
    const ts = new Set<number>();
    for (const r of rs) if (mayBeLeg(r, (chain) => perChain.get(chain) ?? 0, wallets.byAddress)) ts.add(r.ts);
    return [...ts];
  };
  // Found while the rows are read, linked after: the connection cannot write while it reads lazily.
  const found: { pairs: Pair[]; single: Leg[] }[] = [];
  for (const group of groupsByTime(rows ? legsAtTimes(engine.db, ws, timestamps(rows)) : legsInTimeOrder(engine.db, ws))) {
    const pairs = sameTimePairs(group, wallets.byId, isRejected);
    const paired = new Set(pairs.flatMap((p) => [p.out.id, p.in.id]));
    const single = group.filter((leg) => !paired.has(leg.id) && oneLegWallet(leg, wallets.byAddress) && !isRejected(rejectionKey(leg.id, '')));
    if (pairs.length > 0 || single.length > 0) found.push({ pairs, single });
  }
  let linked = 0;
  for (const { pairs, single } of found) {
    const ids = [...pairs.flatMap((p) => [p.out.id, p.in.id]), ...single.map((l) => l.id)];
    changing(engine, ws, ids, () => {
      for (const pair of pairs) link(engine, ws, pair, 'auto');
      for (const leg of single) {
        insertTransfer(engine.db, { id: newId('trf'), workspace_id: ws, kind: 'internal', matched_by: 'auto', created_at: nowIso() }, [leg.id]);
      }
    });
    linked += ids.length;
  }
  // Only a workspace with an exchange account has exchange transfers to look for.
  const exchanges = [...wallets.byId.values()].some((w) => w.chain === EXCHANGE_CHAIN);
  return linked + (exchanges ? matchExchangeHashes(engine, ws, isRejected, rows) : 0);
}

/**
 * Exchange transfers by network hash (docs/accounting.md "Exchange accounts"): each free row of
 * the given ones (or, without them, each free exchange row) that carries a network hash, paired
 * with the other side of the move: an exchange's rows found by the hash (an index of exchange rows
 * only), a wallet's rows within a day either side of the exchange's row. Returns the legs linked.
 */
function matchExchangeHashes(engine: Engine, ws: string, isRejected: (key: string) => boolean, rows?: Iterable<MatchRow>): number {
  // A wallet's new row can only pair with an exchange row of its hash: those hashes, read once, sift them.
  // Read only when a wallet's row has a network hash: an exchange file's batches never need them,
  // and each read is a pass over all the workspace's exchange rows.
  let hashes: Set<string> | undefined;
  const onExchangeToo = (hash: string) => (hashes ??= exchangeNetworkHashes(engine.db, ws)).has(hash.toLowerCase());
  const seeds = rows
    ? legsById(
        engine.db,
        ws,
        [...rows].filter((r) => movesValue(r) && NETWORK_HASH.test(r.tx_hash) && (r.chain === EXCHANGE_CHAIN || onExchangeToo(r.tx_hash))).map((r) => r.id),
      )
    : exchangeLegsWithHashes(engine.db, ws);
  const pairs: Pair[] = [];
  const taken = new Set<string>();
  const near = rows ? legsByHashNear : hashLegsNear(engine, ws, seeds);
  for (const seed of seeds) {
    if (taken.has(seed.id) || seed.transfer !== null) continue;
    const others = onExchange(seed)
      ? near(engine.db, ws, seed.tx_hash, seed.ts - EXCHANGE_WINDOW_SECONDS, seed.ts + EXCHANGE_WINDOW_SECONDS + 1)
      : exchangeLegsByHash(engine.db, ws, seed.tx_hash);
    const pair = exchangeHashPair(
      seed,
      others.filter((o) => !taken.has(o.id)),
      isRejected,
    );
    if (!pair) continue;
    pairs.push(pair);
    taken.add(pair.out.id).add(pair.in.id);
  }
  if (pairs.length === 0) return 0;
  const ids = pairs.flatMap((p) => [p.out.id, p.in.id]);
  changing(engine, ws, ids, () => {
    for (const pair of pairs) link(engine, ws, pair, 'auto');
  });
  return ids.length;
}

/**
 * legsByHashNear for a whole-ledger pass: the rows of every seed's hash read in one pass
 * (legsWithHashes), then each seed's taken from them by hash and time, in the same order.
 */
function hashLegsNear(engine: Engine, ws: string, seeds: readonly Leg[]): typeof legsByHashNear {
  const byHash = new Map<string, Leg[]>();
  for (const leg of legsWithHashes(engine.db, ws, [...new Set(seeds.map((s) => s.tx_hash.toLowerCase()))])) {
    const key = leg.tx_hash.toLowerCase();
    let list = byHash.get(key);
    if (!list) byHash.set(key, (list = []));
    list.push(leg);
  }
  return (_db, _ws, hash, startTs, endTs) => (byHash.get(hash.toLowerCase()) ?? []).filter((l) => l.ts >= startTs && l.ts < endTs);
}

function* groupsByTime(legs: Iterable<Leg>): Generator<Leg[]> {
  let group: Leg[] = [];
  for (const leg of legs) {
    if (group.length > 0 && group[0]!.ts !== leg.ts) {
      yield group;
      group = [];
    }
    group.push(leg);
  }
  if (group.length > 0) yield group;
}

function transferOf(engine: Engine, ws: string, row: TransferRow): Transfer {
  const legs = legIds(engine.db, row.id).map((id) => getTransaction(engine, ws, id));
  return { id: row.id, kind: row.kind, matched_by: row.matched_by, status: 'matched', legs };
}

function candidateOf(engine: Engine, ws: string, pair: Pair<LinkLeg>): Transfer {
  return {
    id: null,
    kind: kindOf(pair.out, pair.in),
    matched_by: null,
    status: 'candidate',
    legs: [getTransaction(engine, ws, pair.out.id), getTransaction(engine, ws, pair.in.id)],
  };
}

/** `GET /transfers?status=`: matched transfers (oldest first), then the proposed ones; one page. */
export function listTransfers(engine: Engine, ws: string, params: QueryParams): Page<Transfer> {
  engine.workspace(ws);
  const status = params.status ? oneOf(params.status, TRANSFER_STATUSES, 'status', 'INVALID_PARAMETERS') : undefined;
  const req = parsePageParams(params, LIMIT_DEFAULT, LIMIT_MAX);
  return engine.db.transaction(() => {
    const matched = status === 'candidate' ? 0 : countTransfers(engine.db, ws);
    const candidates = status === 'matched' ? [] : proposedBridges(engine.db, ws);
    const data: Transfer[] = [];
    if (req.offset < matched) {
      data.push(...listTransferRows(engine.db, ws, req.limit, req.offset).map((row) => transferOf(engine, ws, row)));
    }
    const from = Math.max(0, req.offset - matched);
    for (const pair of candidates.slice(from, from + req.limit - data.length)) data.push(candidateOf(engine, ws, pair));
    return { data, pagination: paginationOf(matched + candidates.length, req) };
  })();
}

/** The leg named by `field`: a row of this workspace, else INVALID_TRANSFER (another workspace's row is no own transfer). */
function legOf(engine: Engine, ws: string, id: string, field: 'transaction_id' | 'counterpart_id'): Leg {
  const [leg] = legsById(engine.db, ws, [id]);
  if (leg) return leg;
  if (field === 'transaction_id') throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${id} not found`, { field });
  throw new TxaError('INVALID_TRANSFER', `${id} is not a transaction of this workspace; an own transfer moves between two wallets of one workspace`, { field });
}

/** `POST /transfers`: the user matches two rows as the legs of one own transfer. */
export function matchTransfer(engine: Engine, ws: string, body: unknown): Transfer {
  const { transaction_id, counterpart_id } = validateBody(transferCreateSchema, body);
  engine.workspace(ws);
  return engine.write(() => {
    const a = legOf(engine, ws, transaction_id, 'transaction_id');
    const b = legOf(engine, ws, counterpart_id, 'counterpart_id');
    for (const [leg, field] of [
      [a, 'transaction_id'],
      [b, 'counterpart_id'],
    ] as const) {
      if (canBeLeg(engine.db, ws, leg.id)) continue;
      const why = leg.type === 'fee' ? 'is a fee' : leg.amount === '0' ? 'moves nothing' : 'is marked spam';
      throw new TxaError('INVALID_TRANSFER', `transaction ${leg.id} ${why}: it cannot be a leg of an own transfer`, { field });
    }
    const problem = pairProblem(a, b);
    if (problem) throw new TxaError('INVALID_TRANSFER', problem, { field: 'counterpart_id' });
    for (const [leg, field] of [
      [a, 'transaction_id'],
      [b, 'counterpart_id'],
    ] as const) {
      // A one-leg transfer is waiting for its counterpart: the other row may join it.
      if (leg.transfer && (leg.transfer.legs > 1 || (a.transfer && b.transfer))) {
        throw new TxaError('TRANSFER_EXISTS', `transaction ${leg.id} is already a leg of transfer ${leg.transfer.id}`, {
          field,
          hint: `Unmatch it first: txa transfers unmatch ${leg.id}`,
        });
      }
    }
    const pair = a.direction === 'outflow' ? { out: a, in: b } : { out: b, in: a };
    const id = changing(engine, ws, [pair.out.id, pair.in.id], () => {
      removeRejection(engine.db, pair.out.id, pair.in.id);
      return link(engine, ws, pair, 'user');
    });
    return transferOf(engine, ws, getTransfer(engine.db, ws, id)!);
  });
}

/** `DELETE /transfers/:id`: the legs become free rows, and the pair is never matched automatically again. */
export function unmatchTransfer(engine: Engine, ws: string, transferId: string): Deleted {
  engine.workspace(ws);
  return engine.write(() => {
    const row = getTransfer(engine.db, ws, transferId);
    if (!row) throw new TxaError('TRANSFER_NOT_FOUND', `transfer ${transferId} not found`);
    const ids = legIds(engine.db, row.id);
    changing(engine, ws, ids, () => {
      // Keyed as matching looks them up: the pair (outflow, inflow), and each leg alone (leg, '').
      if (ids.length === 2) addRejection(engine.db, ws, ids[0]!, ids[1]!);
      for (const id of ids) addRejection(engine.db, ws, id, '');
      deleteTransfer(engine.db, row.id);
    });
    return { id: row.id, deleted: true };
  });
}

/**
 * Makes own transfers of the given free rows (a rule's `internal: true`, `matched_by: rule`): each
 * takes the counterpart automatic matching would (same transaction, another own wallet), else its
 * proposed bridge, else it becomes a one-leg transfer when its counterparty is an own wallet.
 * Rejected pairs stay rejected. Call inside a write transaction; returns the ids of every leg
 * linked (counterparts included).
 */
export function matchRowsByRule(engine: Engine, ws: string, ids: readonly string[]): string[] {
  const wanted = new Set(ids);
  const legs = legsById(engine.db, ws, [...wanted]).filter((l) => l.transfer === null && movesValue(l));
  if (legs.length === 0) return [];
  const wallets = ownWallets(engine, ws);
  const rejected = rejections(engine.db, ws);
  const isRejected = (key: string) => rejected.has(key);
  const pairs: Pair<LinkLeg>[] = [];
  const used = new Set<string>();
  const take = (pair: Pair<LinkLeg>) => {
    if (used.has(pair.out.id) || used.has(pair.in.id)) return;
    pairs.push(pair);
    used.add(pair.out.id).add(pair.in.id);
  };
  for (const group of groupsByTime(legsAtTimes(engine.db, ws, [...new Set(legs.map((l) => l.ts))]))) {
    for (const pair of sameTimePairs(group, wallets.byId, isRejected)) if (wanted.has(pair.out.id) || wanted.has(pair.in.id)) take(pair);
  }
  // Bridges as `transfers list` proposes them, from the rows within a bridge window of the given ones.
  const open = legs.filter((l) => !used.has(l.id));
  if (open.length > 0) {
    const first = open.reduce((ts, l) => Math.min(ts, l.ts), Infinity);
    const last = open.reduce((ts, l) => Math.max(ts, l.ts), -Infinity);
    const range = { startTs: first - PROPOSAL_WINDOW_SECONDS, endTs: last + PROPOSAL_WINDOW_SECONDS + 1 };
    for (const pair of proposedBridges(engine.db, ws, range)) if (wanted.has(pair.out.id) || wanted.has(pair.in.id)) take(pair);
  }
  const single = legs.filter((l) => !used.has(l.id) && oneLegWallet(l, wallets.byAddress) && !isRejected(rejectionKey(l.id, '')));
  const linked = [...pairs.flatMap((p) => [p.out.id, p.in.id]), ...single.map((l) => l.id)];
  changing(engine, ws, linked, () => {
    for (const pair of pairs) link(engine, ws, pair, 'rule');
    for (const leg of single)
      insertTransfer(engine.db, { id: newId('trf'), workspace_id: ws, kind: 'internal', matched_by: 'rule', created_at: nowIso() }, [leg.id]);
  });
  return linked;
}

/** Confirms every proposed bridge (the demo's rule: its wallets bridge only to each other); returns how many. */
export function confirmCandidates(engine: Engine, ws: string, matchedBy: TransferMatchedBy): number {
  return engine.write(() => {
    const pairs = proposedBridges(engine.db, ws);
    for (const pair of pairs) changing(engine, ws, [pair.out.id, pair.in.id], () => link(engine, ws, pair, matchedBy));
    return pairs.length;
  });
}
