/**
 * The transition allocation (docs/lots.md "Allocation"): the lots left in the pool at a moment
 * assigned to wallets, by an order (accounting/allocation.ts) or by hand, each line of a hand-made
 * one checked against the pool and the balances; recorded once per workspace with its event.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import { requireDay } from '../core/dates.js';
import { fromBaseUnits } from '../core/money.js';
import { validateBody } from '../core/validate.js';
import { allocationCreateSchema, WALLET_SCOPE_FROM, type Allocation, type AllocationLine, type AllocationOrderName, type PoolMethod } from '../core/lots.js';
import { allocate, type AllocatedLot, type PoolLot } from '../accounting/allocation.js';
import { share } from '../accounting/lots.js';
import { getAllocationHeader, replaceAllocation, type AllocationHeaderRow, type AllocationOrder } from '../store/lots.js';
import { walletLabels } from '../store/ledger.js';
import { poolAt, recordedAllocation, type Pool } from './lot-ledger.js';
import { closedThrough } from './periods.js';
import { assertLotDateOpen, computeThenWrite, day, money, positive, scaleOfText, units } from './lot-writes.js';

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
      hint: "Record one with: txa lots allocate (reports meanwhile use the fifo order's)",
    });
  }
  return allocationOf(engine, ws, header, recordedAllocation(engine, ws)!, true);
}

/**
 * Replacing a recorded allocation is refused once a period of 2025 or later is closed
 * (docs/lots.md "Allocation: `txa lots allocate`"): the closed reports of those years were made with it.
 */
export function assertAllocationReplaceable(engine: Engine, workspaceId: string): void {
  const closed = closedThrough(engine, workspaceId);
  if (!closed || closed.through < WALLET_SCOPE_FROM) return;
  throw new TxaError('PERIOD_CLOSED', `the recorded allocation made the reports of the period closed through ${closed.through}; it cannot be replaced`, {
    field: 'replace',
    extra: { closed_through: closed.through },
    hint: `Reopen the period first: txa period reopen --through ${closed.through} --reason TEXT`,
  });
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
