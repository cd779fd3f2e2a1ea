/**
 * Webhook subscriptions and their deliveries (CONTRACT §8). A delivery row per (event,
 * subscription) is written by a trigger on the event log (migration 3) inside the transaction that
 * appends the event, whichever process appends it, so an event is never committed without its
 * deliveries. The delivery loop of `txa serve` sends them and records every attempt; the retry
 * schedule lives in the same rows, so a restart (even a SIGKILL) loses nothing.
 */
import { z } from 'zod';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { isoSeconds, nowIso } from '../core/clock.js';
import { validateBody } from '../core/validate.js';
import { newWebhookSecret } from '../core/webhook-signature.js';
import type { Deleted, DeliveryState, Webhook } from '../core/types.js';
import { ALL_EVENTS, receives } from '../core/webhook-match.js';

export { receives } from '../core/webhook-match.js';

export const EVENT_TYPES = [
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'transaction.created',
  'transaction.tagged',
  'transaction.updated',
  'export.completed',
  'wallet.created',
  'wallet.updated',
  'wallet.synced',
  'wallet.deleted',
] as const;

export const webhookCreateSchema = z.object({
  workspace_id: z.string().optional(),
  url: z
    .string()
    .max(2048, { message: 'must be at most 2048 characters' })
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), { message: 'must be an http(s) URL' }),
  events: z
    .array(z.enum([...EVENT_TYPES, ALL_EVENTS], { message: `must be event types: ${EVENT_TYPES.join(', ')} (or *)` }))
    .min(1, { message: 'must name at least one event type' })
    .optional(),
});

/**
 * Delays after each failed attempt: the Standard Webhooks schedule (5 s … 24 h), ten tries over
 * about three days. After the last one the delivery is `failed`.
 */
export const RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((s) => s * 1000);

interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: string;
  secret: string;
  created_at: string;
}

function toWebhook(r: WebhookRow): Webhook {
  return { id: r.id, workspace_id: r.workspace_id, url: r.url, events: JSON.parse(r.events) as string[], created_at: r.created_at };
}

export function createWebhook(engine: Engine, workspaceId: string, body: unknown): Webhook & { secret: string } {
  const input = validateBody(webhookCreateSchema, body);
  const events = !input.events || input.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(input.events)];
  const row: WebhookRow = {
    id: newId('wh'),
    workspace_id: workspaceId,
    url: input.url,
    events: JSON.stringify(events),
    secret: newWebhookSecret(),
    created_at: nowIso(),
  };
  engine.write(() => {
    engine.workspace(workspaceId);
    engine.db
      .prepare('INSERT INTO webhooks (id, workspace_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.id, row.workspace_id, row.url, row.events, row.secret, row.created_at);
  });
  return { ...toWebhook(row), secret: row.secret };
}

export function listWebhooks(engine: Engine, workspaceId: string): Webhook[] {
  engine.workspace(workspaceId);
  const rows = engine.db.prepare('SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, id').all(workspaceId) as WebhookRow[];
  return rows.map(toWebhook);
}

/**
 * The secret of the workspace's oldest subscription receiving `type` at `url`, or null: the export
 * job signs its `export.completed` call with it, so the secret `webhooks add` printed verifies
 * that call too (docs/exports.md, "Webhook").
 */
export function subscriptionSecret(engine: Engine, workspaceId: string, url: string, type: string): string | null {
  const rows = engine.db.prepare('SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, rowid').all(workspaceId) as WebhookRow[];
  return rows.find((r) => receives(toWebhook(r), url, type))?.secret ?? null;
}

/** Removes a subscription; its pending deliveries are given up (their history stays). */
export function deleteWebhook(engine: Engine, workspaceId: string, webhookId: string): Deleted {
  return engine.write(() => {
    engine.workspace(workspaceId);
    const found = engine.db.prepare('SELECT id FROM webhooks WHERE id = ? AND workspace_id = ?').get(webhookId, workspaceId);
    if (!found) throw new TxaError('WEBHOOK_NOT_FOUND', `webhook ${webhookId} not found`, { hint: 'List webhooks with: txa webhooks list' });
    engine.db.prepare("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE webhook_id = ? AND status = 'pending'").run(webhookId);
    engine.db.prepare('DELETE FROM webhooks WHERE id = ?').run(webhookId);
    return { id: webhookId, deleted: true as const };
  });
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

export function dueDeliveries(engine: Engine, nowMs: number, limit: number): DueDelivery[] {
  return engine.db
    .prepare(
      `SELECT d.id, d.event_id, d.url, w.secret, e.payload, d.attempt_count
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
    )
    .all(nowMs, limit) as DueDelivery[];
}

/** The earliest pending attempt time (Unix ms), or null when nothing is pending. */
export function nextDueAt(engine: Engine): number | null {
  const row = engine.db.prepare("SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'").get() as { at: number | null };
  return row.at;
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** Records an attempt and moves the delivery on: succeeded, retried later, or failed for good. */
export function recordAttempt(engine: Engine, deliveryId: string, result: AttemptResult, nowMs: number): void {
  engine.write(() => {
    const row = engine.db.prepare('SELECT attempt_count FROM webhook_deliveries WHERE id = ?').get(deliveryId) as { attempt_count: number } | undefined;
    if (!row) return;
    const attempt = row.attempt_count + 1;
    engine.db
      .prepare('INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error) VALUES (?, ?, ?, ?, ?)')
      .run(deliveryId, attempt, isoSeconds(Math.floor(nowMs / 1000)), result.statusCode, result.error);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const delay = RETRY_DELAYS_MS[attempt - 1];
    const status = ok ? 'succeeded' : delay === undefined ? 'failed' : 'pending';
    // ±10 % jitter, so a receiver that was down is not hit by every retry at the same instant.
    const next = status === 'pending' ? nowMs + Math.round(delay! * (0.9 + Math.random() * 0.2)) : null;
    engine.db.prepare('UPDATE webhook_deliveries SET attempt_count = ?, status = ?, next_attempt_at = ? WHERE id = ?').run(attempt, status, next, deliveryId);
  });
}

/** Delivery states of events, by event id: what `listEvents` shows beside each event. */
export type DeliveryLookup = (eventIds: string[]) => Map<string, DeliveryState[]>;

/** Delivery states by event id, for `listEvents`. */
export function deliveryLookup(engine: Engine): DeliveryLookup {
  return (eventIds) => {
    const states = new Map<string, DeliveryState[]>();
    if (eventIds.length === 0) return states;
    const marks = eventIds.map(() => '?').join(',');
    const deliveries = engine.db
      .prepare(`SELECT id, event_id, webhook_id, url, status, next_attempt_at FROM webhook_deliveries WHERE event_id IN (${marks}) ORDER BY rowid`)
      .all(...eventIds) as {
      id: string;
      event_id: string;
      webhook_id: string | null;
      url: string;
      status: DeliveryState['status'];
      next_attempt_at: number | null;
    }[];
    const attempts = engine.db
      .prepare(
        `SELECT a.delivery_id, a.at, a.status_code, a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.event_id IN (${marks}) ORDER BY a.delivery_id, a.attempt`,
      )
      .all(...eventIds) as { delivery_id: string; at: string; status_code: number | null; error: string | null }[];
    const byDelivery = new Map<string, DeliveryState['attempts']>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push({ at: a.at, status_code: a.status_code, error: a.error });
      byDelivery.set(a.delivery_id, list);
    }
    for (const d of deliveries) {
      const list = states.get(d.event_id) ?? [];
      list.push({
        webhook_id: d.webhook_id,
        url: d.url,
        status: d.status,
        attempts: byDelivery.get(d.id) ?? [],
        next_attempt_at: d.next_attempt_at === null ? null : isoSeconds(Math.ceil(d.next_attempt_at / 1000)),
      });
      states.set(d.event_id, list);
    }
    return states;
  };
}
