/**
 * Webhook subscriptions and their deliveries (docs/server.md "Webhooks"). A delivery row per (event,
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
import {
  attemptsOfEvents,
  deleteWebhookRow,
  deliveriesOfEvents,
  deliveryAttemptCount,
  dueDeliveryRows,
  insertAttempt,
  insertWebhook,
  listWebhookRows,
  nextPendingAt,
  updateDelivery,
  webhookExists,
  webhookRowsOldestFirst,
  type DueDelivery,
  type WebhookRow,
} from '../store/webhooks.js';
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
  'lots.allocated',
  'lots.picked',
  'lots.unpicked',
  'lots.imported',
  'lots.openings_removed',
  'period.closed',
  'period.reopened',
  'member.invited',
  'member.joined',
  'member.updated',
  'member.removed',
  'schedule.run',
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
    insertWebhook(engine.db, row);
  });
  return { ...toWebhook(row), secret: row.secret };
}

export function listWebhooks(engine: Engine, workspaceId: string): Webhook[] {
  engine.workspace(workspaceId);
  return listWebhookRows(engine.db, workspaceId).map(toWebhook);
}

/**
 * The secret of the workspace's oldest subscription receiving `type` at `url`, or null: the export
 * job signs its `export.completed` call with it, so the secret `webhooks add` printed verifies
 * that call too (docs/exports.md, "Webhook").
 */
export function subscriptionSecret(engine: Engine, workspaceId: string, url: string, type: string): string | null {
  return webhookRowsOldestFirst(engine.db, workspaceId).find((r) => receives(toWebhook(r), url, type))?.secret ?? null;
}

/** Removes a subscription; its pending deliveries are given up (their history stays). */
export function deleteWebhook(engine: Engine, workspaceId: string, webhookId: string): Deleted {
  return engine.write(() => {
    engine.workspace(workspaceId);
    if (!webhookExists(engine.db, workspaceId, webhookId))
      throw new TxaError('WEBHOOK_NOT_FOUND', `webhook ${webhookId} not found`, { hint: 'List webhooks with: txa webhooks list' });
    deleteWebhookRow(engine.db, webhookId);
    return { id: webhookId, deleted: true as const };
  });
}

export function dueDeliveries(engine: Engine, nowMs: number, limit: number): DueDelivery[] {
  return dueDeliveryRows(engine.db, nowMs, limit);
}

/** The earliest pending attempt time (Unix ms), or null when nothing is pending. */
export function nextDueAt(engine: Engine): number | null {
  return nextPendingAt(engine.db);
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** Records an attempt and moves the delivery on: succeeded, retried later, or failed for good. */
export function recordAttempt(engine: Engine, deliveryId: string, result: AttemptResult, nowMs: number): void {
  engine.write(() => {
    const count = deliveryAttemptCount(engine.db, deliveryId);
    if (count === undefined) return;
    const attempt = count + 1;
    insertAttempt(engine.db, deliveryId, attempt, { at: isoSeconds(Math.floor(nowMs / 1000)), status_code: result.statusCode, error: result.error });
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const delay = RETRY_DELAYS_MS[attempt - 1];
    const status = ok ? 'succeeded' : delay === undefined ? 'failed' : 'pending';
    // ±10 % jitter, so a receiver that was down is not hit by every retry at the same instant.
    const next = status === 'pending' ? nowMs + Math.round(delay! * (0.9 + Math.random() * 0.2)) : null;
    updateDelivery(engine.db, deliveryId, attempt, status, next);
  });
}

/** Delivery states of events, by event id: what `listEvents` shows beside each event. */
export type DeliveryLookup = (eventIds: string[]) => Map<string, DeliveryState[]>;

/** Delivery states by event id, for `listEvents`. */
export function deliveryLookup(engine: Engine): DeliveryLookup {
  return (eventIds) => {
    const states = new Map<string, DeliveryState[]>();
    if (eventIds.length === 0) return states;
    const deliveries = deliveriesOfEvents(engine.db, eventIds);
    const attempts = attemptsOfEvents(engine.db, eventIds);
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
