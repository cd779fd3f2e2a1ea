/**
 * The workspace's API requests per hour (core/limits.ts), as a fixed window aligned to the clock
 * hour. Counters live in memory and are flushed to SQLite (`api_usage`) every second and on
 * shutdown, and read back on first use, so a restart does not hand out a fresh budget (a SIGKILL
 * forgets at most the last second of counts). The flush uses a connection of its own that does
 * not wait for locks: while another process holds a long write (a CLI import), it is skipped and
 * tried again a second later, instead of stalling every request behind it. `@fastify/rate-limit`
 * is not used: it keys on the
 * client, not the workspace, keeps its counters only in memory or Redis, and its 429 body is
 * not the API's (docs/server.md "Hourly budget").
 */
import type { Engine } from '../engine/engine.js';
import { openDb, setBusyTimeout, writeTx, type Db } from '../store/db.js';
import { getApiUsage, saveApiUsage } from '../store/api-usage.js';
import { limitsOf } from '../core/limits.js';
import { nowSeconds } from '../core/clock.js';

const WINDOW_SECONDS = 3600;
const FLUSH_MS = 1000;

interface Window {
  start: number;
  count: number;
  dirty: boolean;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Seconds to wait when the budget is spent, else null. */
  retryAfter: number | null;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly timer: NodeJS.Timeout;
  private readonly flushDb: Db;

  constructor(private readonly engine: Engine) {
    this.flushDb = engine.ledgerPath === ':memory:' ? engine.db : openDb(engine.ledgerPath);
    this.timer = setInterval(() => this.flush(0), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Counts one request of the workspace and returns its budget for the headers (null =
   * unlimited); `exceeded` once the hour's budget is spent (that request is not counted).
   */
  hit(workspaceId: string): RateState | null {
    const limit = limitsOf(this.engine.workspace(workspaceId)).apiRequestsPerHour;
    if (limit === null) return null;
    const now = nowSeconds();
    const start = now - (now % WINDOW_SECONDS);
    const w = this.window(workspaceId, start);
    const reset = start + WINDOW_SECONDS;
    if (w.count >= limit) return { limit, remaining: 0, reset, retryAfter: Math.max(1, reset - now) };
    w.count += 1;
    w.dirty = true;
    return { limit, remaining: limit - w.count, reset, retryAfter: null };
  }

  private window(workspaceId: string, start: number): Window {
    let w = this.windows.get(workspaceId);
    if (!w) {
      const row = getApiUsage(this.engine.db, workspaceId);
      w = { start: row?.window_start ?? start, count: row?.count ?? 0, dirty: false };
      this.windows.set(workspaceId, w);
    }
    if (w.start !== start) Object.assign(w, { start, count: 0, dirty: true });
    return w;
  }

  /** Writes the changed counters; gives up (keeping them for the next try) after `waitMs` of lock. */
  private flush(waitMs: number): void {
    const dirty = [...this.windows].filter(([, w]) => w.dirty);
    if (dirty.length === 0 || !this.flushDb.open) return;
    setBusyTimeout(this.flushDb, waitMs);
    try {
      writeTx(this.flushDb, () => {
        for (const [id, w] of dirty) saveApiUsage(this.flushDb, id, { window_start: w.start, count: w.count });
      });
      for (const [, w] of dirty) w.dirty = false;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.flush(5000);
    if (this.flushDb !== this.engine.db) this.flushDb.close();
  }
}
