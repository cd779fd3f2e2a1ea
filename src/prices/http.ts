/**
 * GET of a price API's JSON behind the run's rate limiter, capped and timed and retried like the
 * explorer calls (docs/sync.md, "Rate limits and errors"): HTTP 429 and 5xx, connection failures,
 * calls past the deadline and malformed JSON, 6 tries waiting 1, 2, 4, 8, 16 call intervals or the server's Retry-After. Any other status
 * goes back to the client with its body, which knows what the API means by it.
 */
import { TxaError } from '../core/errors.js';
import { Retryable, getAnswer, retried, type AnswerLimits } from '../sync/http.js';
import type { TokenBucket } from '../sync/rate-limiter.js';

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when it was not JSON. */
  body: unknown;
}

export class PriceHttp {
  /** Calls sent, retries included: the `requests` of a fill. */
  requests = 0;

  constructor(
    readonly name: string,
    private readonly limiter: TokenBucket,
    private readonly limits: AnswerLimits,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {}

  async get(url: URL, headers: Record<string, string> = {}): Promise<JsonAnswer> {
    const attempt = () => {
      this.requests++;
      return this.call(url, headers);
    };
    return retried(this.limiter, attempt, {
      label: this.name,
      onRetry: this.onRetry,
      gaveUp: (err, tries) => this.gaveUp(err, tries),
      unusable: (reason) => unusable(this.name, reason),
    });
  }

  private async call(url: URL, headers: Record<string, string>): Promise<JsonAnswer> {
    const { status, text } = await getAnswer(url, headers, this.limits);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (status === 200) throw new Retryable('the answer is not JSON', false);
    }
    return { status, body };
  }

  private gaveUp(err: Retryable, tries: number): TxaError {
    const hint = 'Prices fetched before the failure are cached; run txa prices fill again to go on from there.';
    if (err.rateLimited) {
      return new TxaError('RATE_LIMIT_EXCEEDED', `${this.name} kept answering with its rate limit (${err.message}) after ${tries} tries`, {
        hint: `Lower TXA_PRICES_RPS and try again. ${hint}`,
      });
    }
    const after = tries === 1 ? '' : ` (after ${tries} tries)`;
    return new TxaError('SYNC_FAILED', `the price source ${this.name} failed: ${err.message}${after}`, { hint });
  }
}

/** SYNC_FAILED for an answer the client cannot use. */
export function unusable(name: string, what: string): TxaError {
  return new TxaError('SYNC_FAILED', `${name} answered ${what}`, {
    hint: 'Prices fetched before the failure are cached; run txa prices fill again to go on from there.',
  });
}
