/** Workspaces (local only): create and list. */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { oneOf } from '../core/filters.js';
import { TIERS, type Workspace } from '../core/types.js';
import { getWorkspace, insertWorkspace, listWorkspaces } from '../store/ledger.js';

export interface WorkspaceInput {
  id?: string;
  name: string;
  tier?: string;
  currency?: string;
  rate_limit?: number | null;
}

export function createWorkspace(engine: Engine, input: WorkspaceInput): Workspace {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new TxaError('INVALID_FIELD', 'name must be 1 to 100 characters', { field: 'name' });
  const tier = oneOf(input.tier ?? 'free', TIERS, 'tier', 'INVALID_FIELD');
  const currency = (input.currency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new TxaError('INVALID_FIELD', `currency must be a three-letter code such as USD, got '${input.currency}'`, { field: 'currency' });
  const rateLimit = input.rate_limit ?? null;
  if (rateLimit !== null && (!Number.isSafeInteger(rateLimit) || rateLimit < 1)) {
    throw new TxaError('INVALID_FIELD', 'rate_limit must be a whole number of requests per hour, at least 1', { field: 'rate_limit' });
  }
  if (rateLimit !== null && tier !== 'enterprise') {
    throw new TxaError('INVALID_FIELD', 'rate_limit applies to enterprise workspaces only; other tiers have the fixed limits of their tier', { field: 'rate_limit' });
  }
  const ws: Workspace = { id: input.id ?? newId('ws'), name, tier, base_currency: currency, rate_limit: rateLimit, created_at: nowIso() };
  return engine.write(() => {
    if (getWorkspace(engine.db, ws.id)) throw new TxaError('WORKSPACE_ALREADY_EXISTS', `workspace ${ws.id} already exists`, { field: 'id' });
    insertWorkspace(engine.db, ws);
    return ws;
  });
}

export function allWorkspaces(engine: Engine): Workspace[] {
  return listWorkspaces(engine.db);
}
