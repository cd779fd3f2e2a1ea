/**
 * One signed webhook POST (docs/server.md "Webhooks"), shared by the delivery loop of subscriptions and an
 * export's `export.completed` call: Standard Webhooks headers with the event id as `webhook-id`,
 * the stored payload byte for byte, the wall clock for the timestamp (receivers check it against
 * their own). 2xx is success; any other answer, a connection error, a refusal or the timeout is
 * a failed attempt, described in a line fit for the attempt log.
 */
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { webhookHeaders } from '../core/webhook-signature.js';
import { REFUSED_CODE } from './outbound.js';

export interface WebhookMessage {
  url: string;
  secret: string;
  messageId: string;
  payload: string;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  /** The target is refused by the address guard: trying again soon changes nothing. */
  refused?: boolean;
}

export async function sendWebhook(m: WebhookMessage, dispatcher: Dispatcher, timeoutMs: number): Promise<SendResult> {
  const headers = webhookHeaders(m.secret, m.messageId, Math.floor(Date.now() / 1000), m.payload);
  try {
    const res = await request(m.url, {
      method: 'POST',
      headers: { ...headers, 'user-agent': 'txa-webhooks/1' },
      body: m.payload,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return { statusCode: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}` };
  } catch (err) {
    const e = err as { code?: string; message?: string; name?: string; cause?: { code?: string; message?: string } };
    if (e.code === REFUSED_CODE) return { statusCode: null, error: `refused: ${e.message}`.slice(0, 300), refused: true };
    const timedOut =
      e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT';
    const reason = timedOut ? `timeout after ${timeoutMs} ms` : (e.cause?.message ?? e.message ?? String(err));
    return { statusCode: null, error: reason.slice(0, 300) };
  }
}
