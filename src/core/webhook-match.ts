/** Which subscriptions an event reaches: the delivery's rule (engine/webhooks.ts) and `export create`'s hint that a webhook export cannot be verified. */
import type { Webhook } from './types.js';

/** `*` subscribes to every event type, including ones added later. */
export const ALL_EVENTS = '*';

/**
 * Whether a subscription receives events of `type` at `url` (the delivery trigger's rule, plus the
 * URL). URLs compare as parsed (WHATWG `href`), as an export stores its `webhook_url`: both
 * `https://h.example` and `https://h.example/` are the one endpoint either call reaches.
 */
export function receives(hook: Pick<Webhook, 'url' | 'events'>, url: string, type: string): boolean {
  return hrefOf(hook.url) === hrefOf(url) && hook.events.some((e) => e === ALL_EVENTS || e === type);
}

function hrefOf(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}
