/**
 * Standard Webhooks signing (docs/server.md "Webhooks"): `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` with a `whsec_<base64>` secret, verifiable with the `standardwebhooks` library.
 */
import { createHmac, randomBytes } from 'node:crypto';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed delivery. */
export function webhookHeaders(secret: string, msgId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, msgId, timestampSeconds, body),
  };
}
