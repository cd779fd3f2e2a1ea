/**
 * Webhook subscriptions, their deliveries and attempts (docs/server.md, "Webhooks"). Deliveries
 * are scheduled by a trigger on `events` (migration 3), never here.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { DeliveryState } from '../core/types.js';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  secret: string;
  created_at: string;
}

/** A delivery that is due, with what the sender needs. */
export interface DueDelivery {
  id: string;
  event_id: string;
  url: string;
  secret: string;
  payload: string;
  attempt_count: number;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  webhook_id: string | null;
  url: string;
  status: DeliveryState['status'];
  /** Unix ms. */
  next_attempt_at: number | null;
}

export interface AttemptRow {
  delivery_id: string;
  at: string;
  status_code: number | null;
  error: string | null;
}

export function insertWebhook(db: Db, w: WebhookRow): void {
  prepareCached(db, 'INSERT INTO webhooks (id, workspace_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    w.id,
    w.workspace_id,
    w.url,
    w.events,
    w.secret,
    w.created_at,
  );
}

/** The workspace's subscriptions as listed: by creation time, then id. */
export function listWebhookRows(db: Db, workspaceId: string): WebhookRow[] {
  return prepareCached(db, 'SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, id').all(workspaceId) as WebhookRow[];
}

/** The workspace's subscriptions oldest first (ties by the order they were written). */
export function webhookRowsOldestFirst(db: Db, workspaceId: string): WebhookRow[] {
  return prepareCached(db, 'SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, rowid').all(workspaceId) as WebhookRow[];
}

export function webhookExists(db: Db, workspaceId: string, id: string): boolean {
  return prepareCached(db, 'SELECT id FROM webhooks WHERE id = ? AND workspace_id = ?').get(id, workspaceId) !== undefined;
}

/** Removes a subscription, giving up its pending deliveries (their history stays). */
export function deleteWebhookRow(db: Db, id: string): void {
  prepareCached(db, "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE webhook_id = ? AND status = 'pending'").run(id);
  prepareCached(db, 'DELETE FROM webhooks WHERE id = ?').run(id);
}

/** Pending deliveries due at `nowMs`, earliest first. */
export function dueDeliveryRows(db: Db, nowMs: number, limit: number): DueDelivery[] {
  return prepareCached(
    db,
    `SELECT d.id, d.event_id, d.url, w.secret, e.payload, d.attempt_count
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
  ).all(nowMs, limit) as DueDelivery[];
}

/** The earliest pending attempt time (Unix ms), or null when nothing is pending. */
export function nextPendingAt(db: Db): number | null {
  return (prepareCached(db, "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'").get() as { at: number | null }).at;
}

export function deliveryAttemptCount(db: Db, deliveryId: string): number | undefined {
  return (prepareCached(db, 'SELECT attempt_count FROM webhook_deliveries WHERE id = ?').get(deliveryId) as { attempt_count: number } | undefined)
    ?.attempt_count;
}

export function insertAttempt(db: Db, deliveryId: string, attempt: number, a: Omit<AttemptRow, 'delivery_id'>): void {
  prepareCached(db, 'INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error) VALUES (?, ?, ?, ?, ?)').run(
    deliveryId,
    attempt,
    a.at,
    a.status_code,
    a.error,
  );
}

export function updateDelivery(db: Db, deliveryId: string, attemptCount: number, status: DeliveryRow['status'], nextAttemptAt: number | null): void {
  prepareCached(db, 'UPDATE webhook_deliveries SET attempt_count = ?, status = ?, next_attempt_at = ? WHERE id = ?').run(
    attemptCount,
    status,
    nextAttemptAt,
    deliveryId,
  );
}

/** The deliveries of some events, in the order they were scheduled. */
export function deliveriesOfEvents(db: Db, eventIds: string[]): DeliveryRow[] {
  const marks = eventIds.map(() => '?').join(',');
  return db
    .prepare(`SELECT id, event_id, webhook_id, url, status, next_attempt_at FROM webhook_deliveries WHERE event_id IN (${marks}) ORDER BY rowid`)
    .all(...eventIds) as DeliveryRow[];
}

/** The attempts of those deliveries, by delivery and attempt number. */
export function attemptsOfEvents(db: Db, eventIds: string[]): AttemptRow[] {
  const marks = eventIds.map(() => '?').join(',');
  return db
    .prepare(
      `SELECT a.delivery_id, a.at, a.status_code, a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.event_id IN (${marks}) ORDER BY a.delivery_id, a.attempt`,
    )
    .all(...eventIds) as AttemptRow[];
}
