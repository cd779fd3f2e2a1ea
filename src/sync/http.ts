/**
 * What the explorer and price clients share about one HTTP call: the agent and its timeouts,
 * which answers are worth trying again (a connection failure, 429 with its Retry-After, 5xx),
 * reading Retry-After, and the retries themselves behind the run's rate limiter. Each client
 * judges the other answers in its API's own terms.
 */
import { Agent, request } from 'undici';
import { sleep, type TokenBucket } from './rate-limiter.js';

/** Tries per call: the first and five retries, waiting 1, 2, 4, 8, 16 rate intervals (or the server's Retry-After). */
const MAX_TRIES = 6;

/** A Retry-After longer than this is not waited for. */
const MAX_RETRY_WAIT_MS = 60_000;

const agent = new Agent({ connectTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 60_000 });

/** Why a call is worth trying again, and whether it was the API's rate limit. */
export class Retryable extends Error {
  constructor(
    reason: string,
    readonly rateLimited: boolean,
    readonly waitMs?: number,
  ) {
    super(reason);
  }
}

/** One GET: its status and body text, or Retryable for a connection failure, a 429 or a 5xx. */
export async function getAnswer(url: URL, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  let status: number;
  let text: string;
  let retryAfter: string | string[] | undefined;
  try {
    const res = await request(url, { dispatcher: agent, headers: { accept: 'application/json', ...headers } });
    status = res.statusCode;
    retryAfter = res.headers['retry-after'];
    text = await res.body.text();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    throw new Retryable(`connection failed (${e.code ?? e.message ?? 'unknown error'})`, false);
  }
  if (status === 429) throw new Retryable('HTTP 429 (rate limit)', true, retryWait(retryAfter));
  if (status >= 500) throw new Retryable(`HTTP ${status}`, false);
  return { status, text };
}

/** Retry-After in ms (seconds or an HTTP date), capped; undefined when absent or too long. */
function retryWait(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms <= MAX_RETRY_WAIT_MS ? Math.max(0, ms) : undefined;
}

export interface RetryOptions {
  /** Names the call in retry notices (`Etherscan txlist`, `DefiLlama`). */
  label: string;
  /** Told of each retry, for stderr. */
  onRetry: (message: string) => void;
  /** The error to throw when the last try was worth retrying too. */
  gaveUp: (err: Retryable, tries: number) => Error;
}

/**
 * Runs `attempt` until it does not throw Retryable, taking a token from `limiter` before each try;
 * between tries it waits the server's Retry-After, or 1, 2, 4, 8, 16 rate intervals.
 */
export async function retried<T>(limiter: TokenBucket, attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  for (let tries = 1; ; tries++) {
    await limiter.take();
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof Retryable)) throw err;
      if (tries === MAX_TRIES) throw opts.gaveUp(err, tries);
      const wait = err.waitMs ?? (1000 / limiter.rate) * 2 ** (tries - 1);
      opts.onRetry(`${opts.label}: ${err.message}; trying again in ${(wait / 1000).toFixed(1)} s`);
      await sleep(wait);
    }
  }
}
