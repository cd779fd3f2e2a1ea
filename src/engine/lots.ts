/**
 * Lots (docs/lots.md): the open lots at a date, the recorded transition allocation (by an order,
 * or hand-made and checked line by line) and the picks of specific identification. The
 * arithmetic is the tax ledger's (lot-ledger.ts, accounting/allocation.ts); this module
 * validates requests, shapes answers and writes, each write with its event in one transaction.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import { DAY_SECONDS, requireDay } from '../core/dates.js';
import { centsToString, fromBaseUnits, normalizeDecimal, scaleOf, toBaseUnits } from '../core/money.js';
import { validateBody } from '../core/validate.js';
import type { QueryParams } from '../core/types.js';
import { oneOf } from '../core/filters.js';
import { COST_BASIS } from '../core/export-values.js';
import {
  allocationCreateSchema,
  picksCreateSchema,
  WALLET_SCOPE_FROM,
  type Allocation,
  type AllocationLine,
  type AllocationOrderName,
  type LotPick,
  type OpenLots,
  type PicksDeleted,
  type PoolMethod,
} from '../core/lots.js';
import { allocate, type AllocatedLot, type PoolLot } from '../accounting/allocation.js';
import { share } from '../accounting/lots.js';
import {
  deletePicks,
  getAllocationHeader,
  insertPicks,
  listPicks,
  replaceAllocation,
  type AllocationHeaderRow,
  type AllocationOrder,
  type PickRow,
} from '../store/lots.js';
import { walletLabels } from '../store/ledger.js';
import { workspaceWalletIds } from '../store/workspace-wallets.js';
import { selectById } from '../store/transactions.js';
import { eventVersion } from '../store/events.js';
import { loadAssetTable } from './ledger-rows.js';
import { openLotsAt, poolAt, recordedAllocation, type HeldLot, type Pool } from './lot-ledger.js';

const money = (cents: bigint | null) => (cents === null ? null : Number(centsToString(cents)));
const day = (iso: string) => (iso === '' ? null : iso.slice(0, 10));

/** A positive exact decimal, or null. */
function positive(text: string): string | null {
  const q = normalizeDecimal(text);
  return q === null || q.startsWith('-') || q === '0' ? null : q;
}

/** Exact decimals at one scale. */
const units = (q: string, scale: number) => toBaseUnits(normalizeDecimal(q)!, scale);
const scaleOfText = (q: string) => scaleOf(normalizeDecimal(q)!.replace(/^-/, ''));

function lineOf(l: AllocatedLot, labels: Map<string, string>): AllocationLine {
  return {
    wallet_id: l.walletId,
    wallet_label: labels.get(l.walletId) ?? l.walletId,
    asset: l.assetSymbol,
    lot: l.lotId === '' ? null : l.lotId,
    quantity: l.quantity,
    date_acquired: day(l.acquiredAt),
    cost_basis: money(l.costCents),
  };
}

function allocationOf(engine: Engine, ws: string, header: Omit<AllocationHeaderRow, 'workspace_id'>, lines: AllocatedLot[], recorded: boolean): Allocation {
  const labels = walletLabels(engine.db, ws);
  return {
    at: header.at,
    order: header.allocation_order,
    cost_basis: header.cost_basis,
    recorded,
    recorded_at: recorded ? header.recorded_at : null,
    recorded_by: recorded ? header.actor : null,
    lines: lines.map((l) => lineOf(l, labels)),
  };
}

/** `GET /lots/allocation`: the recorded allocation; NOT_FOUND while none is. */
export function getAllocation(engine: Engine, ws: string): Allocation {
  engine.workspace(ws);
  const header = getAllocationHeader(engine.db, ws);
  if (!header) {
    throw new TxaError('NOT_FOUND', `no allocation is recorded for workspace ${ws}`, {
      hint: 'Record one with: txa lots allocate (reports meanwhile use the fifo order’s)',
    });
  }
  return allocationOf(engine, ws, header, recordedAllocation(engine, ws)!, true);
}

/**
 * Where the coordinator's closed periods plug in (docs/lots.md "Replacing"): replacing a
 * recorded allocation is refused once a period of 2025 or later is closed, since closed
 * reports were made with it. Until periods exist it allows every replacement.
 */
export function assertAllocationReplaceable(_engine: Engine, _workspaceId: string): void {}

/**
 * Where the coordinator's closed periods plug in for the other lots writes (docs/lots.md): a
 * write that changes what rows dated at or before `ts` take (an allocation at `at`, a disposal's
 * picks) is to be refused with PERIOD_CLOSED naming `field` while that date is closed. Until
 * periods exist it allows every write.
 */
export function assertLotDateOpen(_engine: Engine, _workspaceId: string, _ts: number, _field: string): void {}

/**
 * Computes in a read snapshot, then writes in a write transaction that first checks no event of
 * the workspace came in between (every change the lots depend on appends one, docs/storage.md
 * "The event log"), computing again under the write lock only if one did. The ledger pass takes
 * seconds on a large ledger; holding the write lock for it would make other writers wait past
 * their busy timeout. What is written is always what the rows at the commit give.
 */
export function computeThenWrite<C, T>(engine: Engine, ws: string, compute: () => C, write: (computed: C) => T): T {
  const first = engine.db.transaction(() => ({ version: eventVersion(engine.db, ws), computed: compute() }))();
  return engine.write(() => write(eventVersion(engine.db, ws) === first.version ? first.computed : compute()));
}

/**
 * `POST /lots/allocation`: computes the allocation at `at` (by `order`, or checks the hand-made
 * `lines`) and records it, replacing none unless `replace`; `dry_run` only computes. What is
 * recorded is computed from the rows as they are at the commit (computeThenWrite).
 */
export function createAllocation(engine: Engine, ws: string, body: unknown): Allocation {
  engine.workspace(ws);
  const input = validateBody(allocationCreateSchema, body);
  const at = input.at ?? WALLET_SCOPE_FROM;
  const atTs = requireDay(at, 'at', 'INVALID_FIELD');
  if (input.lines && input.order) {
    throw new TxaError('INVALID_FIELD', 'order and lines exclude each other: lines are a hand-made allocation', { field: 'order' });
  }
  const method: PoolMethod = input.cost_basis ?? 'fifo';
  const order: AllocationOrder = input.lines ? 'specific' : (input.order ?? 'fifo');
  const header = () => ({ at, allocation_order: order, cost_basis: method, recorded_at: nowIso(), actor: engine.actor });
  const mayRecord = () => {
    if (getAllocationHeader(engine.db, ws) && !input.replace) {
      throw new TxaError('ALLOCATION_EXISTS', `workspace ${ws} already has a recorded allocation`, {
        field: 'replace',
        hint: 'Show it with: txa lots allocation; record another with --replace',
      });
    }
    if (input.replace) assertAllocationReplaceable(engine, ws);
    assertLotDateOpen(engine, ws, atTs, 'at');
  };
  const compute = () => {
    const pool = poolAt(engine, ws, atTs, method);
    return input.lines
      ? specificAllocation(engine, ws, pool, input.lines, at)
      : allocate(pool.pool, pool.balances, pool.walletOrder, order as AllocationOrderName);
  };
  if (input.dry_run) return engine.db.transaction(() => allocationOf(engine, ws, header(), compute(), false))();
  return computeThenWrite(
    engine,
    ws,
    () => {
      mayRecord();
      return compute();
    },
    (lines) => {
      mayRecord();
      const replaced = getAllocationHeader(engine.db, ws) !== undefined;
      const h = header();
      replaceAllocation(
        engine.db,
        { workspace_id: ws, ...h },
        lines.map((l) => ({
          wallet_id: l.walletId,
          asset_key: l.assetKey,
          asset_symbol: l.assetSymbol,
          lot_id: l.lotId === '' ? null : l.lotId,
          quantity: l.quantity,
          acquired_at: l.acquiredAt === '' ? null : l.acquiredAt,
          cost_cents: l.costCents,
        })),
      );
      engine.change(ws, 'lots.allocated', ws, { at, order, cost_basis: method, lines: lines.length, replaced });
      return allocationOf(engine, ws, h, lines, true);
    },
  );
}

interface FileLine {
  wallet: string;
  lot: string;
  quantity: string;
  line?: number | undefined;
}

/** The wallet a line names: its id, else its label (exactly, then trimmed and case-insensitively). */
function walletResolver(labels: Map<string, string>): (ref: string, field: string) => string {
  return (ref, field) => {
    if (labels.has(ref)) return ref;
    for (const match of [(l: string) => l === ref, (l: string) => l.trim().toLowerCase() === ref.trim().toLowerCase()]) {
      const ids = [...labels].filter(([, label]) => match(label)).map(([id]) => id);
      if (ids.length === 1) return ids[0]!;
      if (ids.length > 1) throw new TxaError('INVALID_ALLOCATION', `${field}: the label '${ref}' names ${ids.length} wallets; use the wallet id`, { field });
    }
    throw new TxaError('INVALID_ALLOCATION', `${field}: no wallet of the workspace has the id or label '${ref}'`, { field });
  };
}

/**
 * A hand-made allocation (`--specific FILE`), checked against the pool at `at` (docs/lots.md
 * "A hand-made allocation"): each line names a wallet and a pooled lot, a positive quantity, and
 * no lot gives more than the pool holds of it; each wallet's lines of an asset add up to its
 * balance then. A balance the pool's lots cannot cover (the pool has none of the asset left) is
 * completed as missing cost basis, as the ordered allocation does. Costs are the lots' shares.
 */
function specificAllocation(engine: Engine, ws: string, pool: Pool, lines: FileLine[], at: string): AllocatedLot[] {
  const labels = walletLabels(engine.db, ws);
  const walletOf = walletResolver(labels);
  const lots = new Map(pool.pool.map((l) => [l.lotId, l]));
  const fieldOf = (l: FileLine, i: number) => `line ${l.line ?? i + 1}`;
  // Every quantity of an asset at one scale: the pool's, the balances' and the lines'.
  const scales = new Map<string, number>();
  const widen = (asset: string, q: string) => scales.set(asset, Math.max(scales.get(asset) ?? 0, scaleOfText(q)));
  for (const l of pool.pool) widen(l.assetKey, l.quantity);
  for (const b of pool.balances) widen(b.assetKey, b.quantity);
  const parsed = lines.map((l, i) => {
    const field = fieldOf(l, i);
    const walletId = walletOf(l.wallet, field);
    const quantity = positive(l.quantity);
    if (quantity === null) throw new TxaError('INVALID_ALLOCATION', `${field}: quantity must be a positive number, got '${l.quantity}'`, { field });
    const lot = lots.get(l.lot);
    if (!lot) throw new TxaError('INVALID_ALLOCATION', `${field}: lot ${l.lot} is not in the pool at ${at} (no open lot has that id)`, { field });
    widen(lot.assetKey, quantity);
    return { field, walletId, quantity, lot };
  });
  const balanceOf = new Map(pool.balances.map((b) => [`${b.walletId} ${b.assetKey}`, b.quantity]));
  const used = new Map<string, bigint>();
  const sums = new Map<string, { units: bigint; field: string; walletId: string; lot: PoolLot }>();
  const out: AllocatedLot[] = [];
  for (const p of parsed) {
    const scale = scales.get(p.lot.assetKey)!;
    const q = units(p.quantity, scale);
    const whole = units(p.lot.quantity, scale);
    const before = used.get(p.lot.lotId) ?? 0n;
    if (before + q > whole) {
      throw new TxaError(
        'INVALID_ALLOCATION',
        `${p.field}: lot ${p.lot.lotId} holds ${p.lot.quantity} ${p.lot.assetSymbol} in the pool at ${at}; the lines up to this one take ${fromBaseUnits(before + q, scale)}`,
        { field: p.field },
      );
    }
    used.set(p.lot.lotId, before + q);
    const key = `${p.walletId} ${p.lot.assetKey}`;
    const sum = (sums.get(key)?.units ?? 0n) + q;
    const balance = units(balanceOf.get(key) ?? '0', scale);
    if (sum > balance) {
      throw new TxaError(
        'INVALID_ALLOCATION',
        `${p.field}: wallet ${labels.get(p.walletId)} holds ${fromBaseUnits(balance, scale)} ${p.lot.assetSymbol} at ${at}; its lines up to this one assign ${fromBaseUnits(sum, scale)}`,
        { field: p.field },
      );
    }
    sums.set(key, { units: sum, field: p.field, walletId: p.walletId, lot: p.lot });
    out.push({
      walletId: p.walletId,
      assetKey: p.lot.assetKey,
      assetSymbol: p.lot.assetSymbol,
      lotId: p.lot.lotId,
      quantity: p.quantity,
      acquiredAt: p.lot.acquiredAt,
      costCents: share(p.lot.costCents, before, before + q, whole),
    });
  }
  // What the pool still holds of each asset, to tell a short wallet from a balance no lot can cover.
  const left = new Map<string, bigint>();
  for (const l of pool.pool) {
    const scale = scales.get(l.assetKey)!;
    left.set(l.assetKey, (left.get(l.assetKey) ?? 0n) + units(l.quantity, scale) - (used.get(l.lotId) ?? 0n));
  }
  for (const b of pool.balances) {
    const scale = scales.get(b.assetKey)!;
    const balance = units(b.quantity, scale);
    const s = sums.get(`${b.walletId} ${b.assetKey}`);
    const rest = balance - (s?.units ?? 0n);
    if (rest <= 0n) continue;
    const symbol = b.assetSymbol ?? pool.pool.find((l) => l.assetKey === b.assetKey)?.assetSymbol ?? b.assetKey;
    if ((left.get(b.assetKey) ?? 0n) > 0n) {
      const field = s?.field ?? 'lines';
      throw new TxaError(
        'INVALID_ALLOCATION',
        `${field}: wallet ${labels.get(b.walletId)} holds ${b.quantity} ${symbol} at ${at}; its lines assign ${fromBaseUnits(s?.units ?? 0n, scale)}, and the pool still has ${fromBaseUnits(left.get(b.assetKey)!, scale)} to give`,
        { field },
      );
    }
    out.push({
      walletId: b.walletId,
      assetKey: b.assetKey,
      assetSymbol: symbol,
      lotId: '',
      quantity: fromBaseUnits(rest, scale),
      acquiredAt: '',
      costCents: null,
    });
  }
  return out;
}

/**
 * `GET /lots?at=&wallet_id=&asset=&cost_basis=`: the lots open at the end of the day `at`
 * (default today) in the scope of that moment, disposals having taken lots by `cost_basis`
 * (default `specific`: the picks recorded, FIFO for the rest).
 */
export function listOpenLots(engine: Engine, ws: string, query: QueryParams): OpenLots {
  engine.workspace(ws);
  const at = query.at ?? nowIso().slice(0, 10);
  const endTs = requireDay(at, 'at') + DAY_SECONDS;
  const method = query.cost_basis === undefined ? 'specific' : oneOf(query.cost_basis, COST_BASIS, 'cost_basis', 'INVALID_PARAMETERS');
  const labels = walletLabels(engine.db, ws);
  if (query.wallet_id !== undefined && !labels.has(query.wallet_id)) {
    throw new TxaError('WALLET_NOT_FOUND', `wallet ${query.wallet_id} not found`, { field: 'wallet_id' });
  }
  const asset = query.asset?.trim().toLowerCase();
  const held = engine.db.transaction(() => openLotsAt(engine, ws, endTs, method))();
  const rank = new Map(workspaceWalletIds(engine.db, ws).map((id, i) => [id, i]));
  const lots = held.lots
    .filter((l) => (query.wallet_id === undefined || l.walletId === query.wallet_id) && (asset === undefined || l.assetSymbol.toLowerCase() === asset))
    .sort(
      (a, b) =>
        (rank.get(a.walletId ?? '') ?? -1) - (rank.get(b.walletId ?? '') ?? -1) ||
        cmp(a.assetSymbol, b.assetSymbol) ||
        cmp(a.acquiredAt, b.acquiredAt) ||
        cmp(a.lotId, b.lotId),
    )
    .map((l) => ({
      wallet_id: l.walletId,
      wallet_label: l.walletId === null ? null : (labels.get(l.walletId) ?? l.walletId),
      asset: l.assetSymbol,
      lot: l.lotId,
      quantity: l.quantity,
      date_acquired: l.acquiredAt.slice(0, 10),
      cost_basis: money(l.costCents)!,
    }));
  return { at, scope: held.scope, allocation: held.scope === 'wallet' ? (getAllocationHeader(engine.db, ws) ? 'recorded' : 'computed') : null, lots };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function pickOf(p: PickRow, disposalTs: number | undefined): LotPick {
  return {
    disposal_id: p.disposal_id,
    lot: p.lot_id,
    quantity: p.quantity,
    recorded_at: p.recorded_at,
    recorded_by: p.actor,
    after_sale: disposalTs !== undefined && Date.parse(p.recorded_at) / 1000 > disposalTs,
  };
}

/** `GET /lots/picks?disposal_id=`: the picks recorded, of one disposal or of all. */
export function listLotPicks(engine: Engine, ws: string, query: QueryParams): LotPick[] {
  engine.workspace(ws);
  const id = query.disposal_id;
  if (id !== undefined && !selectById(engine.db, ws, id)) {
    throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${id} not found`, { field: 'disposal_id' });
  }
  const rows = listPicks(engine.db, ws, id);
  const times = new Map<string, number | undefined>();
  return rows.map((p) => {
    if (!times.has(p.disposal_id)) times.set(p.disposal_id, selectById(engine.db, ws, p.disposal_id)?.ts);
    return pickOf(p, times.get(p.disposal_id));
  });
}

/** Whether a row is a disposal (docs/lots.md "Picks"): an outflow of a non-zero amount that is no own transfer's leg nor an approval. */
function isDisposal(row: { direction: string; transfer_id: string | null; type: string; amount: string }): boolean {
  return row.direction === 'outflow' && row.transfer_id === null && row.type !== 'approval' && positive(row.amount) !== null;
}

/**
 * `POST /lots/picks` `{disposal_id, picks: [{lot, quantity?}]}`: records which lots a disposal
 * takes, at the time of recording, after its picks recorded before. Each lot must be open in the
 * disposal's book just before it (the pool before 2025, the wallet's own from then on, reckoned
 * with the picks recorded and FIFO for the rest), picked once per disposal, and no lot or the
 * disposal given more than it holds. Returns the disposal's picks.
 */
export function createLotPicks(engine: Engine, ws: string, body: unknown): LotPick[] {
  engine.workspace(ws);
  const input = validateBody(picksCreateSchema, body);
  const compute = () => {
    const tx = selectById(engine.db, ws, input.disposal_id);
    if (!tx) throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${input.disposal_id} not found`, { field: 'disposal_id' });
    if (!isDisposal(tx)) {
      const what = tx.transfer_id !== null ? 'a leg of an own transfer' : tx.direction === 'inflow' ? 'an inflow' : 'no disposal (zero amount or an approval)';
      throw new TxaError('INVALID_PICK', `transaction ${tx.id} is ${what}; only a disposal takes lots`, { field: 'disposal_id' });
    }
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    // The lots open at the start of the disposal's second, in the scope of its moment.
    return { tx, held: openLotsAt(engine, ws, tx.ts, 'specific', tx.ts) };
  };
  return computeThenWrite(engine, ws, compute, ({ tx, held }) => {
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    const existing = listPicks(engine.db, ws, tx.id);
    const asset = loadAssetTable(engine).assetOf(tx.chain, { symbol: tx.token_symbol, address: tx.token_address });
    const pooled = held.scope === 'universal';
    const book = new Map<string, HeldLot>();
    for (const l of held.lots) {
      if (l.assetKey === asset.key && (pooled ? l.walletId === null : l.walletId === tx.wallet_id)) book.set(l.lotId, l);
    }
    const where = pooled ? `the pool of ${asset.symbol}` : `wallet ${tx.wallet_label}'s ${asset.symbol}`;
    const picked = new Set(existing.map((p) => p.lot_id));
    const scale = Math.max(tx.token_decimals, ...[...book.values()].map((l) => scaleOfText(l.quantity)));
    const disposed = units(normalizeDecimal(tx.amount)!.replace(/^-/, ''), scale);
    const fresh: PickRow[] = [];
    const recordedAt = nowIso();
    let total = 0n;
    for (const p of [...existing.map((e) => ({ lot: e.lot_id, quantity: e.quantity, old: true })), ...input.picks.map((p) => ({ ...p, old: false }))]) {
      const field = p.lot;
      const lot = book.get(p.lot);
      if (!p.old && picked.has(p.lot)) {
        throw new TxaError('INVALID_PICK', `lot ${p.lot} is already picked for ${tx.id}; remove the disposal's picks with txa lots unpick first`, { field });
      }
      if (!lot) {
        if (p.old) continue;
        throw new TxaError('INVALID_PICK', `lot ${p.lot} is not open in ${where} at the disposal ${tx.id}`, { field });
      }
      const holds = units(lot.quantity, scale);
      // A lot picked without a quantity gives what the disposal still needs, up to all it holds (the ledger's rule).
      const needed = disposed > total ? disposed - total : 0n;
      let q = holds < needed ? holds : needed;
      if (p.quantity !== null && p.quantity !== undefined) {
        const exact = positive(p.quantity);
        if (exact === null) throw new TxaError('INVALID_PICK', `lot ${p.lot}: quantity must be a positive number, got '${p.quantity}'`, { field });
        if (scaleOfText(exact) > scale)
          throw new TxaError('INVALID_PICK', `lot ${p.lot}: quantity ${exact} has more decimals than ${asset.symbol}'s ${scale}`, { field });
        q = units(exact, scale);
        if (q > holds) {
          throw new TxaError('INVALID_PICK', `lot ${p.lot} holds ${lot.quantity} ${asset.symbol} in ${where} at the disposal; the pick takes ${exact}`, {
            field,
          });
        }
      }
      total += q;
      if (!p.old) {
        picked.add(p.lot);
        fresh.push({
          workspace_id: ws,
          disposal_id: tx.id,
          lot_id: p.lot,
          quantity: p.quantity ? positive(p.quantity) : null,
          recorded_at: recordedAt,
          actor: engine.actor,
        });
      }
    }
    if (total > disposed) {
      const field = fresh[fresh.length - 1]?.lot_id ?? 'picks';
      throw new TxaError(
        'INVALID_PICK',
        `the picks of ${tx.id} take ${fromBaseUnits(total, scale)} ${asset.symbol}; it disposes of ${fromBaseUnits(disposed, scale)}`,
        {
          field,
        },
      );
    }
    insertPicks(engine.db, fresh);
    engine.change(ws, 'lots.picked', tx.id, {
      disposal_id: tx.id,
      picks: fresh.map((p) => ({ lot: p.lot_id, quantity: p.quantity })),
    });
    return listPicks(engine.db, ws, tx.id).map((p) => pickOf(p, tx.ts));
  });
}

/** `DELETE /lots/picks/:disposal_id`: removes a disposal's picks (it then takes lots by the report's method). */
export function deleteLotPicks(engine: Engine, ws: string, disposalId: string): PicksDeleted {
  engine.workspace(ws);
  return engine.write(() => {
    const tx = selectById(engine.db, ws, disposalId);
    if (!tx) throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${disposalId} not found`, { field: 'disposal_id' });
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    const deleted = deletePicks(engine.db, ws, disposalId);
    if (deleted > 0) engine.change(ws, 'lots.unpicked', disposalId, { disposal_id: disposalId, deleted });
    return { disposal_id: disposalId, deleted };
  });
}
