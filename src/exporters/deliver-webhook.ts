/**
 * The export job's own call of `export.completed` to `delivery.webhook_url` (docs/exports.md "Delivery and jobs",
 * docs/server.md "Webhooks"): a POST of the event's stored payload, signed the Standard Webhooks way with
 * the event id as `webhook-id`, as the delivery loop sends it to subscriptions. Retried within the
 * job (a few seconds, not the loop's hours: the export stays `processing` until this ends).
 * In `txa serve` the call goes through the private-address guard (net/outbound.ts); a refused
 * target is not retried.
 */
import { outboundAgent, type Resolver } from '../net/outbound.js';
import { sendWebhook, type WebhookMessage } from '../net/send-webhook.js';

export interface WebhookDelivery extends WebhookMessage {
  /** Waits before each retry; the number of retries is its length. */
  retryDelaysMs: number[];
  timeoutMs?: number;
  /** Refuse targets that are or resolve to private addresses (serve without --allow-private-webhooks). */
  refusePrivate?: boolean;
  /** How the guard resolves names (tests). */
  resolve?: Resolver;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];
const DEFAULT_TIMEOUT_MS = 15_000;

/** Posts until a 2xx answer; returns null on success, else what went wrong. */
export async function deliverWebhook(d: WebhookDelivery): Promise<string | null> {
  const timeoutMs = d.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = outboundAgent({ allowPrivate: !d.refusePrivate, timeoutMs, resolve: d.resolve });
  try {
    let result = await sendWebhook(d, agent, timeoutMs);
    for (const delay of d.retryDelaysMs) {
      if (result.error === null || result.refused) break;
      await new Promise((r) => setTimeout(r, delay));
      result = await sendWebhook(d, agent, timeoutMs);
    }
    if (result.error === null) return null;
    if (result.refused) return `${d.url} was not called: ${result.error}`;
    const tries = d.retryDelaysMs.length + 1;
    return `${d.url} failed after ${tries} ${tries === 1 ? 'try' : 'tries'}; the last got ${result.error}`;
  } finally {
    await agent.close();
  }
}
