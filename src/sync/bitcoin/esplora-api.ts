/**
 * The Esplora REST API (Blockstream's, mempool.space's) as Bitcoin sync uses it (docs/sync.md
 * "Bitcoin"): an address's transactions, newest first, a page at a time (`/address/:a/txs`, then
 * `/address/:a/txs/chain/:last_seen_txid`), and an address's counts (`/address/:a`). Calls go
 * behind the run's rate limiter with the shared retries (429, 5xx, connection failures, calls past
 * their deadline); an answer that is HTML, or JSON of another shape, is SYNC_FAILED at once, naming
 * the call: no retry makes a web page an API.
 */
import { TxaError } from '../../core/errors.js';
import type { TokenBucket } from '../rate-limiter.js';
import { type Retryable, getAnswer, retried, type AnswerLimits } from '../http.js';
import { checkAddressStats, checkTxs, type AddressStats, type EsploraTx } from './tx-fields.js';

/** Confirmed transactions per page of `/txs` and `/txs/chain/…` (Esplora's fixed page size). */
export const CHAIN_PAGE = 25;

export class EsploraApi {
  /** Calls sent (retries included), for the sync's `requests` count. */
  requests = 0;

  constructor(
    readonly baseUrl: string,
    private readonly limiter: TokenBucket,
    private readonly limits: AnswerLimits,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {}

  /** One page of the address's transactions: the first (mempool ones, then 25 confirmed), or the 25 confirmed after `lastSeen`. */
  async txs(address: string, lastSeen?: string): Promise<EsploraTx[]> {
    const path = lastSeen ? `address/${address}/txs/chain/${lastSeen}` : `address/${address}/txs`;
    return checkTxs(await this.get(path), (why) => this.failed(`${path}: ${why}`));
  }

  /** The address's confirmed and mempool transaction counts. */
  async stats(address: string): Promise<AddressStats> {
    const path = `address/${address}`;
    return checkAddressStats(await this.get(path), (why) => this.failed(`${path}: ${why}`));
  }

  private async get(path: string): Promise<unknown> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}/${path}`);
    return retried(
      this.limiter,
      async () => {
        this.requests++;
        const { status, text } = await getAnswer(url, {}, this.limits);
        if (status !== 200) throw this.failed(`${path}: HTTP ${status}${text ? ` (${snippet(text)})` : ''}`);
        return parsed(text, (why) => this.failed(`${path}: ${why}`));
      },
      {
        label: `Esplora ${path}`,
        onRetry: this.onRetry,
        gaveUp: (err, tries) => this.gaveUp(path, err, tries),
        unusable: (reason) => this.failed(`${path}: answered ${reason}`),
      },
    );
  }

  private failed(reason: string, tries?: number): TxaError {
    const after = tries ? ` (after ${tries} tries)` : '';
    return new TxaError('SYNC_FAILED', `Esplora (${this.baseUrl}) failed for bitcoin: ${reason}${after}`, {
      hint: 'Transactions fetched before the failure are kept; run txa wallet sync again to go on from there. TXA_ESPLORA_URL names the API (default https://mempool.space/api).',
    });
  }

  private gaveUp(path: string, err: Retryable, tries: number): TxaError {
    if (!err.rateLimited) return this.failed(`${path}: ${err.message}`, tries);
    return new TxaError('RATE_LIMIT_EXCEEDED', `Esplora (${this.baseUrl}) kept answering with its rate limit (${err.message}) after ${tries} tries`, {
      hint: 'Lower TXA_SYNC_RPS (default 3 calls per second) and run txa wallet sync again; what was fetched is kept.',
    });
  }
}

/** The body as JSON; an HTML page (a website's or a proxy's, not the API) or other text is named as such. */
function parsed(text: string, failed: (why: string) => TxaError): unknown {
  if (/^\s*</.test(text)) {
    throw failed(`answered HTML, not JSON (${snippet(text)}): is TXA_ESPLORA_URL the API's address (…/api), not the website's?`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw failed(`answered text that is not JSON (${snippet(text)})`);
  }
}

const snippet = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 60)}…` : one;
};
