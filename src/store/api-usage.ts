/** The hourly request counters of `txa serve` (docs/server.md, "Hourly budget"), one row per workspace. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface UsageRow {
  window_start: number;
  count: number;
}

export function getApiUsage(db: Db, workspaceId: string): UsageRow | undefined {
  return prepareCached(db, 'SELECT window_start, count FROM api_usage WHERE workspace_id = ?').get(workspaceId) as UsageRow | undefined;
}

export function saveApiUsage(db: Db, workspaceId: string, u: UsageRow): void {
  prepareCached(
    db,
    'INSERT INTO api_usage (workspace_id, window_start, count) VALUES (?, ?, ?) ON CONFLICT (workspace_id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count',
  ).run(workspaceId, u.window_start, u.count);
}
