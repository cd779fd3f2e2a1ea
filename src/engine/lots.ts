/**
 * Open lots at a date (docs/lots.md "Open lots"): what the tax ledger holds at the end of a UTC
 * day, in the scope of that moment, as the API shows it. The allocation and the picks are
 * lot-allocation.ts and lot-picks.ts.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import { DAY_SECONDS, requireDay } from '../core/dates.js';
import type { QueryParams } from '../core/types.js';
import { oneOf } from '../core/filters.js';
import { COST_BASIS } from '../core/export-values.js';
import type { OpenLots } from '../core/lots.js';
import { getAllocationHeader } from '../store/lots.js';
import { walletLabels } from '../store/ledger.js';
import { workspaceWalletIds } from '../store/workspace-wallets.js';
import { openLotsAt } from './lot-ledger.js';
import { money } from './lot-writes.js';

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
