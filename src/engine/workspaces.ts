/** Workspaces (local only): create, update and list. */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { oneOf } from '../core/filters.js';
import { TIERS, type Tier, type Workspace } from '../core/types.js';
import { DEFAULT_JURISDICTION, parseJurisdiction } from '../core/jurisdictions.js';
import { ensureOwner } from './owner.js';
import { getWorkspace, insertWorkspace, listWorkspaces, updateWorkspaceRow, workspaceHoldsValues } from '../store/ledger.js';

export interface WorkspaceInput {
  id?: string;
  name: string;
  tier?: string;
  currency?: string;
  /** `us` (default), `uk`, `ca`, `de`, `au`. */
  jurisdiction?: string;
  rate_limit?: number | null;
}

function checkName(input: string): string {
  const name = input.trim();
  if (!name || name.length > 100) throw new TxaError('INVALID_FIELD', 'name must be 1 to 100 characters', { field: 'name' });
  return name;
}

function checkCurrency(input: string): string {
  const currency = input.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new TxaError('INVALID_FIELD', `currency must be a three-letter code such as USD, got '${input}'`, { field: 'currency' });
  return currency;
}

function checkRateLimit(rateLimit: number | null, tier: Tier): number | null {
  if (rateLimit !== null && (!Number.isSafeInteger(rateLimit) || rateLimit < 1)) {
    throw new TxaError('INVALID_FIELD', 'rate_limit must be a whole number of requests per hour, at least 1', { field: 'rate_limit' });
  }
  if (rateLimit !== null && tier !== 'enterprise') {
    throw new TxaError('INVALID_FIELD', 'rate_limit applies to enterprise workspaces only; other tiers have the fixed limits of their tier', {
      field: 'rate_limit',
    });
  }
  return rateLimit;
}

export function createWorkspace(engine: Engine, input: WorkspaceInput): Workspace {
  const name = checkName(input.name);
  const tier = oneOf(input.tier ?? 'free', TIERS, 'tier', 'INVALID_FIELD');
  const currency = checkCurrency(input.currency ?? 'USD');
  const jurisdiction = input.jurisdiction === undefined ? DEFAULT_JURISDICTION : parseJurisdiction(input.jurisdiction);
  const rateLimit = checkRateLimit(input.rate_limit ?? null, tier);
  const ws: Workspace = { id: input.id ?? newId('ws'), name, tier, base_currency: currency, jurisdiction, rate_limit: rateLimit, created_at: nowIso() };
  return engine.write(() => {
    if (getWorkspace(engine.db, ws.id)) throw new TxaError('WORKSPACE_ALREADY_EXISTS', `workspace ${ws.id} already exists`, { field: 'id' });
    insertWorkspace(engine.db, ws);
    // Its first admin, the local user (docs/server.md "Teams"): keys made on the ledger are theirs.
    ensureOwner(engine, ws.id);
    return ws;
  });
}

export interface WorkspacePatch {
  name?: string;
  tier?: string;
  currency?: string;
  jurisdiction?: string;
  rate_limit?: number;
}

/**
 * Changes a workspace. Leaving the enterprise tier drops its rate_limit (other tiers have fixed
 * limits). The base currency changes only while no transaction or rate is stored: fiat values and
 * rates are in it, and a new code would relabel them without converting. No API event exists for
 * workspaces, so none is logged.
 */
export function updateWorkspace(engine: Engine, id: string, patch: WorkspacePatch): Workspace {
  return engine.write(() => {
    const before = engine.workspace(id);
    const tier = patch.tier === undefined ? before.tier : oneOf(patch.tier, TIERS, 'tier', 'INVALID_FIELD');
    const after: Workspace = {
      ...before,
      name: patch.name === undefined ? before.name : checkName(patch.name),
      tier,
      base_currency: patch.currency === undefined ? before.base_currency : checkCurrency(patch.currency),
      // Only reports read it (tax year, rules, currency): changing it rewrites nothing stored.
      jurisdiction: patch.jurisdiction === undefined ? before.jurisdiction : parseJurisdiction(patch.jurisdiction),
      rate_limit: checkRateLimit(patch.rate_limit ?? (tier === 'enterprise' ? before.rate_limit : null), tier),
    };
    if (after.base_currency !== before.base_currency && workspaceHoldsValues(engine.db, id)) {
      throw new TxaError(
        'INVALID_FIELD',
        `workspace ${id} holds transactions or rates in ${before.base_currency}; a new base currency would relabel them without converting`,
        {
          field: 'currency',
          hint: 'Export in another currency with --currency (after txa rates import), or start a new workspace in it.',
        },
      );
    }
    updateWorkspaceRow(engine.db, after);
    return after;
  });
}

export function allWorkspaces(engine: Engine): Workspace[] {
  return listWorkspaces(engine.db);
}
