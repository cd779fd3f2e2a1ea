/**
 * One explorer list call (`module=account&action=…`) in the Etherscan V2 or Blockscout dialect
 * (docs/sync.md), behind the run's rate limiter, with retries. Both answer
 * HTTP 200 with `{"status","message","result"}` even for errors, so the envelope is read for what
 * went wrong: an empty list, a rate limit (retried with backoff, as are HTTP 429 and 5xx,
 * connection resets, malformed JSON and Blockscout's `status:"2"` not-yet-indexed answers), a bad
 * key (SYNC_UNAUTHORIZED), a chain the plan does not serve (SYNC_UNSUPPORTED_CHAIN), anything else
 * (SYNC_FAILED). Retries that never succeed end as RATE_LIMIT_EXCEEDED or SYNC_FAILED.
 */
import { TxaError } from '../core/errors.js';
import { CHAIN_INFO } from '../core/chains.js';
import type { ExplorerSource } from './settings.js';
import type { TokenBucket } from './rate-limiter.js';
import { Retryable, getAnswer, retried, type AnswerLimits } from './http.js';

/** A row as the explorer sends it: every value a string. */
export type ApiRow = Record<string, unknown>;

/** The envelope's "nothing here" answers (status 0): no error, an empty list. */
const EMPTY = /^no (transactions|internal transactions|token transfers|records) found/i;

export class ExplorerApi {
  /** Calls sent (retries included), for the sync's `requests` count. */
  requests = 0;

  constructor(
    readonly source: ExplorerSource,
    private readonly limiter: TokenBucket,
    private readonly limits: AnswerLimits,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {}

  get name(): string {
    return this.source.kind === 'etherscan' ? 'Etherscan' : 'Blockscout';
  }

  /** The rows of one page of `action` for `params`; [] when the explorer has none. */
  async list(action: string, params: Record<string, string | number>): Promise<ApiRow[]> {
    const url = this.urlOf(action, params);
    return this.withRetries(action, () => this.call(url));
  }

  /**
   * Blockscout's L1 data fee of one rollup transaction, in wei: its account API leaves it out of
   * txlist rows, its REST API (`/api/v2/transactions/{hash}`, beside the account API's `/api`)
   * has it as `l1_fee` (null where the chain charges none). A transaction the REST API does not
   * know yet (404) is retried like a list that is not indexed yet.
   */
  async l1FeeOf(hash: string): Promise<bigint> {
    const url = new URL(this.source.url);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/v2/transactions/${hash}`;
    return this.withRetries('transaction', async () => {
      const { status, text } = await getAnswer(url, {}, this.limits);
      if (status === 404) throw new Retryable(`transaction ${hash} not indexed yet`, false);
      if (status === 401 || status === 402 || status === 403) throw this.unauthorized(`HTTP ${status}`);
      if (status !== 200) throw this.failed(`transaction ${hash}: HTTP ${status}`);
      let fee: unknown;
      try {
        fee = (JSON.parse(text) as { l1_fee?: unknown } | null)?.l1_fee;
      } catch {
        throw new Retryable('the answer is not JSON', false);
      }
      if (fee === null || fee === undefined) return 0n;
      if (typeof fee !== 'string' || !/^\d+$/.test(fee)) throw this.failed(`transaction ${hash}: l1_fee is not a whole number of wei`);
      return BigInt(fee);
    });
  }

  /** One call of `action` behind the run's rate limiter, with retries, each try counted in `requests`. */
  private withRetries<T>(action: string, attempt: () => Promise<T>): Promise<T> {
    const counted = () => {
      this.requests++;
      return attempt();
    };
    return retried(this.limiter, counted, {
      label: `${this.name} ${action}`,
      onRetry: this.onRetry,
      gaveUp: (err, tries) => this.gaveUp(action, err, tries),
      unusable: (reason) => this.failed(`${action}: answered ${reason}`),
    });
  }

  private urlOf(action: string, params: Record<string, string | number>): URL {
    // new URL keeps a query the base already has (Blockscout PRO's `?chain_id=`).
    const url = new URL(this.source.url);
    const set = (k: string, v: string | number) => url.searchParams.set(k, String(v));
    if (this.source.kind === 'etherscan') set('chainid', String(CHAIN_INFO[this.source.chain].id));
    set('module', 'account');
    set('action', action);
    for (const [k, v] of Object.entries(params)) set(k, v);
    if (this.source.apiKey) set('apikey', this.source.apiKey);
    return url;
  }

  private async call(url: URL): Promise<ApiRow[]> {
    const { status, text } = await getAnswer(url, {}, this.limits);
    if (status === 401 || status === 402 || status === 403) throw this.unauthorized(`HTTP ${status}`);
    if (status !== 200) throw this.failed(`HTTP ${status}`);
    let body: { status?: unknown; message?: unknown; result?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Retryable('the answer is not JSON', false);
    }
    return this.rowsOf(url.searchParams.get('action') ?? '', body ?? {});
  }

  private rowsOf(action: string, body: { status?: unknown; message?: unknown; result?: unknown }): ApiRow[] {
    const message = String(body.message ?? '');
    const result = body.result;
    if (body.status === '1' && Array.isArray(result)) {
      // A row that is no object is never skipped quietly: the list would miss it for good.
      const bad = result.findIndex((r) => !isRow(r));
      if (bad >= 0) throw this.failed(`${action}: row ${bad + 1} of the answer is not an object`);
      return result as ApiRow[];
    }
    // Blockscout: "Some internal transactions within this block range have not yet been processed",
    // possibly with part of the rows: never taken as the whole list.
    if (body.status === '2') throw new Retryable(`not indexed yet (${typeof result === 'string' ? result : message})`, false);
    if (EMPTY.test(message) || (Array.isArray(result) && result.length === 0)) return [];
    const text = typeof result === 'string' && result !== '' ? result : message || 'an answer without rows';
    if (/invalid api key|missing.*api ?key|api ?key.*(missing|invalid)|too many invalid api key/i.test(text)) throw this.unauthorized(text);
    if (/max daily|daily (limit|quota)/i.test(text)) {
      throw new TxaError('RATE_LIMIT_EXCEEDED', `${this.name} refused: ${text}`, {
        hint: "The plan's daily calls are used up; the count resets at 00:00 UTC.",
      });
    }
    if (/rate limit|calls per sec|temporarily unavailable/i.test(text)) throw new Retryable(text, true);
    if (/not supported for this chain|unsupported chain/i.test(text)) {
      const chain = this.source.chain;
      const blockscout = CHAIN_INFO[chain].blockscout;
      throw new TxaError('SYNC_UNSUPPORTED_CHAIN', `${this.name} does not serve ${chain} (chain id ${CHAIN_INFO[chain].id}) on this plan: ${text}`, {
        field: 'chain',
        extra: { chain },
        hint: blockscout
          ? `Sync it from Blockscout without a key: TXA_BLOCKSCOUT_URL_${chain.toUpperCase()}=${blockscout}, or use a paid Etherscan plan.`
          : `Use a paid Etherscan plan, or name an Etherscan-compatible API: TXA_BLOCKSCOUT_URL_${chain.toUpperCase()}=https://…/api`,
      });
    }
    if (/query timeout/i.test(text)) throw new Retryable(text, false);
    throw this.failed(text);
  }

  private unauthorized(reason: string): TxaError {
    const hint =
      this.source.kind === 'etherscan'
        ? 'Set a valid key: TXA_ETHERSCAN_API_KEY or txa config set etherscan_api_key KEY (keys from before Etherscan API V2 no longer work).'
        : `This Blockscout wants a key; name a public instance in TXA_BLOCKSCOUT_URL_${this.source.chain.toUpperCase()}.`;
    return new TxaError('SYNC_UNAUTHORIZED', `${this.name} refused the API key: ${reason}`, { hint });
  }

  private failed(reason: string, tries?: number): TxaError {
    const after = tries ? ` (after ${tries} tries)` : '';
    return new TxaError('SYNC_FAILED', `${this.name} failed for ${this.source.chain}: ${reason}${after}`, {
      hint: 'Transactions fetched before the failure are kept; run txa wallet sync again to go on from there.',
    });
  }

  private gaveUp(action: string, err: Retryable, tries: number): TxaError {
    if (!err.rateLimited) return this.failed(`${action}: ${err.message}`, tries);
    return new TxaError('RATE_LIMIT_EXCEEDED', `${this.name} kept answering with its rate limit (${err.message}) after ${tries} tries`, {
      hint: 'Lower TXA_SYNC_RPS (default 3 calls per second) and run txa wallet sync again; what was fetched is kept.',
    });
  }
}

function isRow(v: unknown): v is ApiRow {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
