/**
 * The webhook delivery loop of `txa serve`: sends due deliveries (engine/webhooks.ts), signed as
 * Standard Webhooks with the event id as `webhook-id` (stable across retries), and records each
 * attempt. A receiver that hangs is cut off by the timeout; sends never block request handling
 * (they are plain async I/O with a bounded number in flight).
 */
import { Agent, request } from 'undici';
import type { Engine } from '../engine/engine.js';
import { dueDeliveries, nextDueAt, recordAttempt, type AttemptResult, type DueDelivery } from '../engine/webhooks.js';
import { webhookHeaders } from '../core/webhook-signature.js';
import { publicOnlyLookup, refusedLiteral } from './url-guard.js';

const MAX_IN_FLIGHT = 8;
const IDLE_POLL_MS = 1000;

export interface DeliveryOptions {
  allowPrivate: boolean;
  /** Per-attempt timeout; `TXA_WEBHOOK_TIMEOUT_MS` overrides the 15 s default (a testing aid). */
  timeoutMs?: number;
}

export class DeliveryLoop {
  private readonly agent: Agent;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly timeoutMs: number;

  constructor(
    private readonly engine: Engine,
    private readonly opts: DeliveryOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? (Number(process.env.TXA_WEBHOOK_TIMEOUT_MS) || 15_000);
    this.agent = new Agent({
      connect: { timeout: this.timeoutMs, ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }) },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      keepAliveTimeout: 10_000,
    });
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
    const result = await this.attempt(d);
    if (!this.engine.db.open) return; // shutting down: the attempt is repeated after the restart
    recordAttempt(this.engine, d.id, result, Date.now());
  }

  private async attempt(d: DueDelivery): Promise<AttemptResult> {
    const refused = this.opts.allowPrivate ? null : refusedLiteral(d.url);
    if (refused) return { statusCode: null, error: refused };
    const headers = webhookHeaders(d.secret, d.event_id, Math.floor(Date.now() / 1000), d.payload);
    try {
      const res = await request(d.url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'txa-webhooks/1' },
        body: d.payload,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { statusCode: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}` };
    } catch (err) {
      const e = err as { code?: string; message?: string; name?: string; cause?: { code?: string; message?: string } };
      const timedOut = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT';
      const reason = timedOut ? `timeout after ${this.timeoutMs} ms` : (e.cause?.message ?? e.message ?? String(err));
      return { statusCode: null, error: reason.slice(0, 300) };
    }
  }

  /** Stops sending; attempts still in flight are not recorded and run again after a restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.agent.destroy().catch(() => undefined);
    await Promise.allSettled(this.inFlight.values());
  }
}
