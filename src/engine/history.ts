/**
 * One transaction's changes from the event log (`txa tx history`, `GET /transactions/:id/history`,
 * the audit report), oldest first, each with its actor and the changed fields' old and new values.
 */
import type { Engine } from './engine.js';
import type { HistoryEntry } from '../core/types.js';
import type { Changes } from '../core/changes.js';
import { requireRow } from './transactions.js';
import { changeEventsOf, type ChangeEventRow } from '../store/events.js';

/** The entries of many transactions at once (the audit asks for every row's). Transactions without events are absent. */
export function historiesOf(engine: Engine, transactionIds: readonly string[]): Map<string, HistoryEntry[]> {
  const rows = changeEventsOf(engine.db, transactionIds);
  const out = new Map<string, HistoryEntry[]>();
  for (const row of rows) {
    let entries = out.get(row.subject_id);
    if (!entries) out.set(row.subject_id, (entries = []));
    entries.push(entryOf(row));
  }
  return out;
}

/**
 * Events written before changes carried values (a list of field names) name the fields with no
 * values; before the actor was recorded, it is null.
 */
function entryOf(r: ChangeEventRow): HistoryEntry {
  const stored = r.changes === null ? {} : (JSON.parse(r.changes) as Changes | string[]);
  const changes = Array.isArray(stored) ? (Object.fromEntries(stored.map((f) => [f, {}])) as Changes) : stored;
  const entry: HistoryEntry = { event_id: r.id, event: r.type, created_at: r.created_at, actor: r.actor, changes };
  if (r.source !== null) entry.source = JSON.parse(r.source) as HistoryEntry['source'];
  return entry;
}

export function transactionHistory(engine: Engine, workspaceId: string, transactionId: string): HistoryEntry[] {
  engine.workspace(workspaceId);
  requireRow(engine, workspaceId, transactionId);
  return historiesOf(engine, [transactionId]).get(transactionId) ?? [];
}
