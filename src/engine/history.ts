/**
 * One transaction's changes from the event log (`txa tx history`, `GET /transactions/:id/history`,
 * the audit report), oldest first, each with its actor and the changed fields' old and new values.
 */
import type { Engine } from './engine.js';
import type { HistoryEntry } from '../core/types.js';
import type { Changes } from '../core/changes.js';
import { requireRow } from './transactions.js';

interface Payload {
  actor?: string;
  changes?: Changes | string[];
  source?: HistoryEntry['source'];
}

/**
 * The entries of a transaction known to exist. Events written before changes carried values
 * (a list of field names) name the fields with no values; before the actor was recorded, it is null.
 */
export function historyOf(engine: Engine, transactionId: string): HistoryEntry[] {
  const rows = engine.db.prepare('SELECT id, type, created_at, payload FROM events WHERE subject_id = ? ORDER BY seq').all(transactionId) as {
    id: string;
    type: string;
    created_at: string;
    payload: string;
  }[];
  return rows.map((r) => {
    const p = JSON.parse(r.payload) as Payload;
    const changes = Array.isArray(p.changes) ? (Object.fromEntries(p.changes.map((f) => [f, {}])) as Changes) : (p.changes ?? {});
    const entry: HistoryEntry = { event_id: r.id, event: r.type, created_at: r.created_at, actor: p.actor ?? null, changes };
    if (p.source) entry.source = p.source;
    return entry;
  });
}

export function transactionHistory(engine: Engine, workspaceId: string, transactionId: string): HistoryEntry[] {
  engine.workspace(workspaceId);
  requireRow(engine, workspaceId, transactionId);
  return historyOf(engine, transactionId);
}
