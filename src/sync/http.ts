/**
 * What the explorer and price clients share about one HTTP call: the agent, an answer's size cap
 * and deadline, which answers are worth trying again (a connection failure, a call past its
 * deadline, 429 with its Retry-After, 5xx), reading Retry-After, and the retries themselves behind
 * the run's rate limiter. Each client judges the other answers in its API's own terms.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { sleep, type TokenBucket } from './rate-limiter.js';

/** Tries per call: the first and five retries, waiting 1, 2, 4, 8, 16 rate intervals (or the server's Retry-After). */
const MAX_TRIES = 6;

/** A Retry-After longer than this is not waited for. */
const MAX_RETRY_WAIT_MS = 60_000;

/**
 * Bounds on one answer (docs/sync.md, Limits): an explorer page of 10,000 rows is about 15 MB, so
 * a body past 64 MiB is no answer but a server that never stops sending; a call that has not
 * brought its whole body within the deadline is given up and tried again, like a 5xx.
 */
export interface AnswerLimits {
  maxBytes: number;
  deadlineMs: number;
}

export const DEFAULT_LIMITS: AnswerLimits = { maxBytes: 64 * 1024 * 1024, deadlineMs: 30_000 };

const agent = new Agent({ connectTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 60_000 });

/** Why a call is worth trying again, and whether it was the API's rate limit. */
export class Retryable extends Error {
  constructor(
    reason: string,
    readonly rateLimited: boolean,
    readonly waitMs?: number,
    /** No retry can help (the host's name does not resolve: no network, or a wrong host): fail at the first try. */
    readonly final = false,
  ) {
    super(reason);
  }
}

/** DNS answers that mean the name cannot be resolved now: no network, or no such host. */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** An answer no retry can mend (larger than the cap): the call fails at once. */
export class Unusable extends Error {}

/**
 * One GET: its status and body text. A connection failure, a 429, a 5xx or a call past the
 * deadline is Retryable; a body past the size cap is Unusable (read no further).
 */
export async function getAnswer(
  url: URL,
  headers: Record<string, string> = {},
  limits: AnswerLimits = DEFAULT_LIMITS,
): Promise<{ status: number; text: string }> {
  const { status, bytes } = await getBytes(url, headers, limits);
  return { status, text: bytes.toString('utf8') };
}

/** getAnswer's call with the body as bytes (a zip file); the same retries, caps and deadline. */
export async function getBytes(
  url: URL,
  headers: Record<string, string> = {},
  limits: AnswerLimits = DEFAULT_LIMITS,
): Promise<{ status: number; bytes: Buffer }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.deadlineMs);
  let status: number;
  let bytes: Buffer;
  let retryAfter: string | string[] | undefined;
  try {
    const res = await request(url, { dispatcher: agent, headers: { accept: 'application/json', ...headers }, signal: deadline.signal });
    status = res.statusCode;
    retryAfter = res.headers['retry-after'];
    bytes = await boundedBytes(res.body, limits.maxBytes);
  } catch (err) {
    if (err instanceof Unusable) throw err;
    if (deadline.signal.aborted) throw new Retryable(`no complete answer within ${limits.deadlineMs / 1000} s`, false);
    const e = err as { code?: string; message?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    // Retrying a name that does not resolve only waits (about 20 s): say so at once, naming the host.
    if (code && UNRESOLVED.has(code)) throw new Retryable(`cannot resolve ${url.hostname} (${code}): no network, or no such host`, false, undefined, true);
    throw new Retryable(`connection failed (${code ?? e.message ?? 'unknown error'})`, false);
  } finally {
    clearTimeout(timer);
  }
  if (status === 429) throw new Retryable('HTTP 429 (rate limit)', true, retryWait(retryAfter));
  if (status >= 500) throw new Retryable(`HTTP ${status}`, false);
  return { status, bytes };
}

/** The body's bytes, or Unusable (and the connection dropped) once it passes `maxBytes`. */
async function boundedBytes(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new Unusable(`more than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
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
  /** The error to throw for an Unusable answer. */
  unusable: (reason: string) => Error;
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
      if (err instanceof Unusable) throw opts.unusable(err.message);
      if (!(err instanceof Retryable)) throw err;
      if (tries === MAX_TRIES || err.final) throw opts.gaveUp(err, tries);
      const wait = err.waitMs ?? (1000 / limiter.rate) * 2 ** (tries - 1);
      opts.onRetry(`${opts.label}: ${err.message}; trying again in ${(wait / 1000).toFixed(1)} s`);
      await sleep(wait);
    }
  }
}
