/**
 * What the explorer and price clients share about one HTTP call: the agent and its timeouts,
 * which answers are worth trying again (a connection failure, 429 with its Retry-After, 5xx),
 * and reading Retry-After. Each client judges the other answers in its API's own terms.
 */
import { Agent, request } from 'undici';

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
export function retryWait(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms <= MAX_RETRY_WAIT_MS ? Math.max(0, ms) : undefined;
}
