/**
 * The export job's own call of `export.completed` to `delivery.webhook_url` (API.md part 6,
 * CONTRACT §6, §8): a POST of the event's stored payload, signed the Standard Webhooks way with
 * the event id as `webhook-id`, as the delivery loop sends it to subscriptions. Retried within the
 * job (a few seconds, not the loop's hours: the export stays `processing` until this ends).
 */
import { webhookHeaders } from '../core/webhook-signature.js';

export interface WebhookDelivery {
  url: string;
  secret: string;
  /** The event id: stable across retries and equal to the subscriptions' deliveries, so receivers drop duplicates. */
  messageId: string;
  /** The event's payload text as stored in the event log, sent byte for byte. */
  payload: string;
  /** Waits before each retry; the number of retries is its length. */
  retryDelaysMs: number[];
  timeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];
const DEFAULT_TIMEOUT_MS = 15_000;

async function attempt(d: WebhookDelivery): Promise<string | null> {
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      // The wall clock, not TXA_NOW: receivers check the timestamp against their own clock.
      headers: { ...webhookHeaders(d.secret, d.messageId, Math.floor(Date.now() / 1000), d.payload), 'user-agent': 'txa-webhooks/1' },
      body: d.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(d.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`;
  } catch (err) {
    // fetch fails with "TypeError: fetch failed"; what went wrong is in its cause (ECONNREFUSED, …).
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (err as Error).message ?? 'network error';
  }
}

/** Posts until a 2xx answer; returns null on success, else what the last try got. */
export async function deliverWebhook(d: WebhookDelivery): Promise<string | null> {
  let failure = await attempt(d);
  for (const delay of d.retryDelaysMs) {
    if (failure === null) return null;
    await new Promise((r) => setTimeout(r, delay));
    failure = await attempt(d);
  }
  return failure === null ? null : `${d.url} answered ${failure} on each of ${d.retryDelaysMs.length + 1} tries`;
}
