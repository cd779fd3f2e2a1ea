/**
 * One transaction's changes from the event log (`txa tx history`, `GET /transactions/:id/history`,
 * the audit report), oldest first, each with its actor and the changed fields' old and new values.
 */
import type { Engine } from './engine.js';
import type { HistoryEntry } from '../core/types.js';
import type { Changes } from '../core/changes.js';
import { requireRow } from './transactions.js';
import { prepareCached } from '../store/statements.js';

/**
 * The entries of a transaction known to exist. Events written before changes carried values
 * (a list of field names) name the fields with no values; before the actor was recorded, it is null.
 */
export function historyOf(engine: Engine, transactionId: string): HistoryEntry[] {
  // Only the parts read: a `transaction.created` payload is the whole transaction (≈ 1 KB of JSON),
  // and the audit asks for every row's history in both of its passes.
  const rows = prepareCached(
    engine.db,
    "SELECT id, type, created_at, payload ->> '$.actor' AS actor, payload -> '$.changes' AS changes, payload -> '$.source' AS source FROM events WHERE subject_id = ? ORDER BY seq",
  ).all(transactionId) as { id: string; type: string; created_at: string; actor: string | null; changes: string | null; source: string | null }[];
  return rows.map((r) => {
    const stored = r.changes === null ? {} : (JSON.parse(r.changes) as Changes | string[]);
    const changes = Array.isArray(stored) ? (Object.fromEntries(stored.map((f) => [f, {}])) as Changes) : stored;
    const entry: HistoryEntry = { event_id: r.id, event: r.type, created_at: r.created_at, actor: r.actor, changes };
    if (r.source !== null) entry.source = JSON.parse(r.source) as HistoryEntry['source'];
    return entry;
  });
}

export function transactionHistory(engine: Engine, workspaceId: string, transactionId: string): HistoryEntry[] {
  engine.workspace(workspaceId);
  requireRow(engine, workspaceId, transactionId);
  return historyOf(engine, transactionId);
}
