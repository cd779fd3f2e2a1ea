/**
 * The client of the ECB's reference-rate files (docs/prices.md "Exchange rates"): one GET per
 * file through the sync's HTTP conventions (undici, the answer's size cap and deadline, retries of
 * 429, 5xx, failed connections and calls past their deadline: src/sync/http.ts), then the file
 * read strictly (ecb-files.ts). Any other status, or a body that is not the file, fails at once:
 * no retry mends a wrong URL.
 */
import { TxaError } from '../core/errors.js';
import { getBytes, retried, type Retryable } from '../sync/http.js';
import { TokenBucket } from '../sync/rate-limiter.js';
import { parseEnvelopeXml, parseHistCsv, refuseHtml, snippet, type Published } from './ecb-files.js';
import type { FxSettings } from './settings.js';

/** The historical file (every day since 1999, about 600 KB zipped) and the last 90 days' (about 30 KB). */
export const FX_FILES = { hist: 'eurofxref-hist.zip', recent: 'eurofxref-hist-90d.xml' } as const;
export type FxFile = keyof typeof FX_FILES;

const HINT =
  'Nothing was stored; run txa rates fill again later. TXA_FX_URL names the directory of the ECB files (default https://www.ecb.europa.eu/stats/eurofxref).';

export class EcbClient {
  /** Calls sent, retries included. */
  requests = 0;
  private readonly limiter: TokenBucket;

  constructor(
    private readonly settings: FxSettings,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {
    this.limiter = new TokenBucket(settings.rps);
  }

  async fetch(kind: FxFile): Promise<Published> {
    const name = FX_FILES[kind];
    const url = new URL(`${this.settings.url}/${name}`);
    const { status, bytes } = await retried(
      this.limiter,
      () => {
        this.requests++;
        return getBytes(url, { accept: kind === 'hist' ? 'application/zip' : 'application/xml, text/xml' }, this.settings.limits);
      },
      {
        label: `ECB ${name}`,
        onRetry: this.onRetry,
        gaveUp: (err, tries) => gaveUp(name, err, tries),
        unusable: (reason) => new TxaError('SYNC_FAILED', `the ECB's ${name} is not usable: ${reason}`, { field: 'TXA_FX_URL', hint: HINT }),
      },
    );
    if (status !== 200) {
      const body = bytes.toString('utf8');
      throw new TxaError('SYNC_FAILED', `the ECB answered HTTP ${status} for ${url.href} (${snippet(body)})`, { field: 'TXA_FX_URL', hint: HINT });
    }
    return kind === 'hist' ? parseHistCsv('eurofxref-hist.csv', await unzipCsv(name, bytes)) : parseEnvelopeXml(name, bytes.toString('utf8'));
  }
}

function gaveUp(name: string, err: Retryable, tries: number): TxaError {
  if (err.rateLimited) {
    return new TxaError('RATE_LIMIT_EXCEEDED', `the ECB kept answering with its rate limit (${err.message}) after ${tries} tries`, {
      hint: `Lower TXA_FX_RPS and try again. ${HINT}`,
    });
  }
  // One try is said by the message alone, as the price APIs' failures do (prices/http.ts).
  const after = tries === 1 ? '' : ` (after ${tries} tries)`;
  return new TxaError('SYNC_FAILED', `the ECB's ${name} failed: ${err.message}${after}`, { field: 'TXA_FX_URL', hint: HINT });
}

/** The one CSV of the historical zip (fflate, which read-excel-file already loads for XLSX, reads it). */
async function unzipCsv(name: string, bytes: Buffer): Promise<string> {
  const text = bytes.toString('utf8');
  refuseHtml(name, text);
  if (bytes.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004') {
    throw new TxaError('SYNC_FAILED', `the ECB's ${name} is not a zip file (${snippet(text)})`, { field: 'TXA_FX_URL', hint: HINT });
  }
  const { unzipSync } = await import('fflate');
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => f.name.toLowerCase().endsWith('.csv') });
  } catch (err) {
    throw new TxaError('SYNC_FAILED', `the ECB's ${name} is a broken zip file (${(err as Error).message})`, { field: 'TXA_FX_URL', hint: HINT });
  }
  const csv = Object.values(entries);
  if (csv.length !== 1) throw new TxaError('SYNC_FAILED', `the ECB's ${name} holds ${csv.length} CSV files, not one`, { field: 'TXA_FX_URL', hint: HINT });
  return Buffer.from(csv[0]!).toString('utf8');
}
