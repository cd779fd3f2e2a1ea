/**
 * The webhook delivery loop of `txa serve`: sends due deliveries (engine/webhooks.ts), signed as
 * Standard Webhooks with the event id as `webhook-id` (stable across retries), and records each
 * attempt. A receiver that hangs is cut off by the timeout; sends never block request handling
 * (they are plain async I/O with a bounded number in flight).
 */
import type { Agent } from 'undici';
import type { Engine } from '../engine/engine.js';
import { dueDeliveries, nextDueAt, recordAttempt } from '../engine/webhooks.js';
import type { DueDelivery } from '../store/webhooks.js';
import { outboundAgent, type Resolver } from '../net/outbound.js';
import { sendWebhook } from '../net/send-webhook.js';

const MAX_IN_FLIGHT = 8;
const IDLE_POLL_MS = 1000;

export interface DeliveryOptions {
  allowPrivate: boolean;
  /** Per-attempt timeout; `TXA_WEBHOOK_TIMEOUT_MS` overrides the 15 s default (a testing aid). */
  timeoutMs?: number;
  /** How the guard resolves names (tests). */
  resolve?: Resolver;
}

export class DeliveryLoop {
  private readonly agent: Agent;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly timeoutMs: number;

  constructor(
    private readonly engine: Engine,
    opts: DeliveryOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? (Number(process.env.TXA_WEBHOOK_TIMEOUT_MS) || 15_000);
    this.agent = outboundAgent({ allowPrivate: opts.allowPrivate, timeoutMs: this.timeoutMs, resolve: opts.resolve });
  }

  start(): void {
    this.schedule(0);
  }

  /** Looks for due deliveries now (after an event was appended). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    if (this.stopped || !this.engine.db.open) return;
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free > 0) {
      for (const d of dueDeliveries(this.engine, Date.now(), MAX_IN_FLIGHT * 2)) {
        if (this.inFlight.size >= MAX_IN_FLIGHT) break;
        if (this.inFlight.has(d.id)) continue;
        const p = this.send(d).finally(() => {
          this.inFlight.delete(d.id);
          this.wake();
        });
        this.inFlight.set(d.id, p);
      }
    }
    const next = nextDueAt(this.engine);
    this.schedule(next === null ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(0, next - Date.now())));
  }

  private async send(d: DueDelivery): Promise<void> {
    const message = { url: d.url, secret: d.secret, messageId: d.event_id, payload: d.payload };
    const { statusCode, error } = await sendWebhook(message, this.agent, this.timeoutMs);
    if (!this.engine.db.open) return; // shutting down: the attempt is repeated after the restart
    recordAttempt(this.engine, d.id, { statusCode, error }, Date.now());
  }

  /** Stops sending; attempts still in flight are not recorded and run again after a restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.agent.destroy().catch(() => undefined);
    await Promise.allSettled(this.inFlight.values());
  }
}
