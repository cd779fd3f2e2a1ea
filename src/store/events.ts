/** The event log: one row per event, written inside the caller's database transaction. */
import type { Db } from './db.js';
import { newId } from '../core/ids.js';
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
 * Appends events. Must be called inside the transaction of the change it reports
 * (CONTRACT §8); `listeners` run in that transaction too (e.g. to schedule webhook deliveries).
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
    if (!this.db.inTransaction) throw new Error('events must be appended inside the transaction of their change');
    const id = newId('evt');
    const createdAt = nowIso();
    const payload = JSON.stringify({ event: type, event_id: id, created_at: createdAt, workspace_id: workspaceId, ...body });
    const info = this.insert.run(id, workspaceId, type, subjectId, createdAt, payload);
    const row: EventRow = { seq: Number(info.lastInsertRowid), id, workspace_id: workspaceId, type, subject_id: subjectId, created_at: createdAt, payload };
    for (const listener of this.listeners) listener(row);
    return row;
  }
}
