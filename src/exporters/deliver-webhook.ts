/**
 * Webhook delivery of `export.completed` (API.md part 6, CONTRACT §8): a POST of exactly the
 * event's fields, signed the Standard Webhooks way, retried with exponential backoff within the job.
 */
import { webhookHeaders } from '../core/webhook-signature.js';

export interface ExportCompletedBody {
  event: 'export.completed';
  export_id: string;
  format: string;
  download_url: string;
  transaction_count: number;
  file_size: number;
  expires_at: string;
}

export interface WebhookDelivery {
  url: string;
  secret: string;
  /** Stable across retries: receivers use it to drop duplicates. */
  messageId: string;
  body: ExportCompletedBody;
  /** Waits before each retry; the number of retries is its length. */
  retryDelaysMs: number[];
  timeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];
const DEFAULT_TIMEOUT_MS = 15_000;

async function attempt(d: WebhookDelivery, payload: string): Promise<string | null> {
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      // The wall clock, not TXA_NOW: receivers check the timestamp against their own clock.
      headers: webhookHeaders(d.secret, d.messageId, Math.floor(Date.now() / 1000), payload),
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(d.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return cause ?? (err as Error).name ?? 'network error';
  }
}

/** Posts until a 2xx answer; returns null on success, else what the last try got. */
export async function deliverWebhook(d: WebhookDelivery): Promise<string | null> {
  const payload = JSON.stringify(d.body);
  let failure = await attempt(d, payload);
  for (const delay of d.retryDelaysMs) {
    if (failure === null) return null;
    await new Promise((r) => setTimeout(r, delay));
    failure = await attempt(d, payload);
  }
  return failure === null ? null : `${d.url} answered ${failure} on each of ${d.retryDelaysMs.length + 1} tries`;
}
