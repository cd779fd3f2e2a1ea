/** Tier limits of docs/reference/api.md "Tier limits". `null` means unlimited. */
import type { Tier, Workspace } from './types.js';

export interface TierLimits {
  tagsPerWorkspace: number | null;
  apiRequestsPerHour: number | null;
  maxTransactionsPerExport: number | null;
  exportsPerHour: number | null;
  concurrentExports: number;
}

export const TIER_LIMITS: Record<Tier, TierLimits> = {
  free: { tagsPerWorkspace: 100, apiRequestsPerHour: 100, maxTransactionsPerExport: 1_000, exportsPerHour: 10, concurrentExports: 1 },
  pro: { tagsPerWorkspace: 500, apiRequestsPerHour: 1_000, maxTransactionsPerExport: 50_000, exportsPerHour: 100, concurrentExports: 5 },
  enterprise: { tagsPerWorkspace: null, apiRequestsPerHour: null, maxTransactionsPerExport: null, exportsPerHour: null, concurrentExports: 20 },
};

/** The workspace's limits; an enterprise workspace's "custom" request budget is its `rate_limit`. */
export function limitsOf(ws: Workspace): TierLimits {
  const base = TIER_LIMITS[ws.tier];
  return ws.tier === 'enterprise' ? { ...base, apiRequestsPerHour: ws.rate_limit } : base;
}

/** Scheduled reports are a Pro and Enterprise feature (docs/server.md "Scheduled reports"). */
export const SCHEDULE_TIERS: readonly Tier[] = ['pro', 'enterprise'];
