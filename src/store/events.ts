/** The event log: one row per event, written inside the caller's database transaction. */
import type Database from 'better-sqlite3';
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
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

/** Events of one type and workspace written many to a statement (EventLog.bulk). */
export interface BulkEvents {
  add: (subjectId: string | null, body: Record<string, unknown>) => void;
  /** `add` of a body given as its JSON text (an object), which the caller built once for many events. */
  addJson: (subjectId: string | null, json: string) => void;
  /** Writes the last ones: call before the transaction ends. */
  end: () => void;
}

const INSERT = 'INSERT INTO events (id, workspace_id, type, subject_id, created_at, payload) VALUES';
/** Events per statement of `bulk`: 6 parameters each, far below SQLite's limit of 32,766. */
const BULK_ROWS = 50;

/**
 * An object's JSON text `json` with the keys of `head` (an object's JSON text without its closing
 * brace) first: the same text as JSON.stringify({ ...headObject, ...jsonObject }) when they share no
 * key, so a large body (a transaction) is serialized once and never copied into a new object. The
 * payload `{"event", "event_id", "created_at", "workspace_id", ...body}` (docs/server.md "Webhooks")
 * is made so; bodies never carry the envelope's keys.
 */
export function keysFirst(head: string, json: string): string {
  return json === '{}' ? `${head}}` : `${head},${json.slice(1)}`;
}

/**
 * Appends events. Must be called inside the transaction of the change it reports
 * (docs/storage.md "The event log"); `listeners` run in that transaction too (e.g. to wake the webhook sender; a
 * trigger on `events` schedules the deliveries themselves).
 */
export class EventLog {
  private readonly insert;
  private bulkInsert: Database.Statement | undefined;
  private readonly listeners: EventListener[] = [];

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`${INSERT} (?, ?, ?, ?, ?, ?)`);
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
    const rowOf = this.rows(workspaceId, type);
    return (subjectId, body) => {
      const row = this.insertOne(rowOf(subjectId, JSON.stringify(body)));
      for (const listener of this.listeners) listener(row);
      return row;
    };
  }

  /** Writes one event by its own statement and sets its `seq`. */
  private insertOne(row: EventRow): EventRow {
    row.seq = Number(this.insert.run(row.id, row.workspace_id, row.type, row.subject_id, row.created_at, row.payload).lastInsertRowid);
    return row;
  }

  /**
   * Like `batch`, for many events (an import's `transaction.created`): written BULK_ROWS to a
   * statement, which costs SQLite about 10 µs less per event than one statement each (the
   * statement journal and the delivery trigger's set-up are paid once per statement;
   * bench/RESULTS.md, "Session 7"). Listeners hear of each event once it is written. Call
   * `end()` before the transaction ends: it writes the last ones.
   */
  bulk(workspaceId: string, type: string): BulkEvents {
    const rowOf = this.rows(workspaceId, type);
    const pending: EventRow[] = [];
    const write = () => {
      if (pending.length === BULK_ROWS) {
        this.bulkInsert ??= this.db.prepare(`${INSERT} ${Array.from({ length: BULK_ROWS }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`);
        // A rowid alias is given max + 1 per row, in the order of VALUES: the last is known.
        const last = Number(this.bulkInsert.run(pending.flatMap((r) => [r.id, r.workspace_id, r.type, r.subject_id, r.created_at, r.payload])).lastInsertRowid);
        pending.forEach((row, i) => {
          row.seq = last - BULK_ROWS + 1 + i;
        });
      } else {
        for (const row of pending) this.insertOne(row);
      }
      for (const row of pending) for (const listener of this.listeners) listener(row);
      pending.length = 0;
    };
    const addJson = (subjectId: string | null, json: string) => {
      pending.push(rowOf(subjectId, json));
      if (pending.length === BULK_ROWS) write();
    };
    return { add: (subjectId, body) => addJson(subjectId, JSON.stringify(body)), addJson, end: write };
  }

  /** The rows of events of one type and workspace, with one `created_at` and the envelope built once; `seq` is set when written. */
  private rows(workspaceId: string, type: string): (subjectId: string | null, json: string) => EventRow {
    if (!this.db.inTransaction) throw new Error('events must be appended inside the transaction of their change');
    const createdAt = nowIso();
    const head = `{"event":${JSON.stringify(type)},"event_id":"`;
    const tail = `","created_at":${JSON.stringify(createdAt)},"workspace_id":${JSON.stringify(workspaceId)}`;
    return (subjectId, json) => {
      const id = newSortableId('evt');
      return { seq: 0, id, workspace_id: workspaceId, type, subject_id: subjectId, created_at: createdAt, payload: keysFirst(head + id + tail, json) };
    };
  }
}

/** The workspace's last event `seq` (0 with none): changes when anything the lists show changes (docs/server.md, "List cache"). */
export function eventVersion(db: Db, workspaceId: string): number {
  return (prepareCached(db, 'SELECT coalesce(max(seq), 0) AS v FROM events WHERE workspace_id = ?').get(workspaceId) as { v: number }).v;
}

/** The workspace's events (of one type, when given): their count, and a page of them newest first. */
export function eventPage(db: Db, workspaceId: string, type: string | undefined, limit: number, offset: number): { total: number; rows: EventRow[] } {
  const where = type ? 'workspace_id = ? AND type = ?' : 'workspace_id = ?';
  const args = type ? [workspaceId, type] : [workspaceId];
  const total = (prepareCached(db, `SELECT count(*) AS n FROM events WHERE ${where}`).get(...args) as { n: number }).n;
  const rows = prepareCached(db, `SELECT * FROM events WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as EventRow[];
  return { total, rows };
}

/** What a transaction's history shows of one of its events (engine/history.ts). */
export interface ChangeEventRow {
  subject_id: string;
  id: string;
  type: string;
  created_at: string;
  actor: string | null;
  /** JSON of the payload's `changes`. */
  changes: string | null;
  /** JSON of the payload's `source`. */
  source: string | null;
}

// Only the parts read: a `transaction.created` payload is the whole transaction (≈ 1 KB of JSON).
const CHANGE_COLUMNS = "subject_id, id, type, created_at, payload ->> '$.actor' AS actor, payload -> '$.changes' AS changes, payload -> '$.source' AS source";

/**
 * The events of many subjects at once, by subject then in log order, in one statement: a lookup
 * per row was a fifth of a 50,000-row audit's CPU time.
 */
export function changeEventsOf(db: Db, subjectIds: readonly string[]): ChangeEventRow[] {
  return prepareCached(db, `SELECT ${CHANGE_COLUMNS} FROM events WHERE subject_id IN (SELECT value FROM json_each(?)) ORDER BY subject_id, seq`).all(
    JSON.stringify(subjectIds),
  ) as ChangeEventRow[];
}
