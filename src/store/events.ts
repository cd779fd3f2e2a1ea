/** The event log: one row per event, written inside the caller's database transaction. */
import type { Db } from './db.js';
import { newSortableId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';

export interface EventRow {
  seq: number;
  id: string;
  workspace_id: string;
  type: string;
  subject_id: string | null;
  created_at: string;
  payload: string;
}

export type EventListener = (event: EventRow) => void;

/**
 * The payload `{"event", "event_id", "created_at", "workspace_id", ...body}` (CONTRACT §8), the
 * same text as JSON.stringify of that object, built by joining the envelope to the body's JSON so
 * a large body (a transaction) is serialized once and never copied into a new object.
 * Bodies never carry the envelope's keys.
 */
function payloadOf(envelope: string, body: Record<string, unknown>): string {
  const json = JSON.stringify(body);
  return json === '{}' ? `${envelope}}` : `${envelope},${json.slice(1)}`;
}

/**
 * Appends events. Must be called inside the transaction of the change it reports
 * (CONTRACT §8); `listeners` run in that transaction too (e.g. to wake the webhook sender; a
 * trigger on `events` schedules the deliveries themselves).
 */
export class EventLog {
  private readonly insert;
  private readonly listeners: EventListener[] = [];

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO events (id, workspace_id, type, subject_id, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  onAppend(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /** `body` is the event's own fields; the envelope (event, event_id, created_at, workspace_id) is added here. */
  append(workspaceId: string, type: string, subjectId: string | null, body: Record<string, unknown>): EventRow {
    return this.batch(workspaceId, type)(subjectId, body);
  }

  /**
   * A function appending events of one type and workspace, one per call, as `append` would, but
   * with one `created_at` (they are written in one transaction) and the envelope's JSON built
   * once. Call it inside the same transaction. It keeps nothing, so an import's ~1 KB payloads
   * die young instead of being copied by the GC.
   */
  batch(workspaceId: string, type: string): (subjectId: string | null, body: Record<string, unknown>) => EventRow {
    if (!this.db.inTransaction) throw new Error('events must be appended inside the transaction of their change');
    const createdAt = nowIso();
    const head = `{"event":${JSON.stringify(type)},"event_id":"`;
    const tail = `","created_at":${JSON.stringify(createdAt)},"workspace_id":${JSON.stringify(workspaceId)}`;
    return (subjectId, body) => {
      const id = newSortableId('evt');
      const payload = payloadOf(head + id + tail, body);
      const seq = Number(this.insert.run(id, workspaceId, type, subjectId, createdAt, payload).lastInsertRowid);
      const row: EventRow = { seq, id, workspace_id: workspaceId, type, subject_id: subjectId, created_at: createdAt, payload };
      for (const listener of this.listeners) listener(row);
      return row;
    };
  }
}
