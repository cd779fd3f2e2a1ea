/**
 * The historical price APIs (docs/prices.md), both answering "the USD price of
 * these coins on these UTC days" one batch at a time, so the fill can cache each batch as it
 * arrives. DefiLlama (keyless, the default) batches up to 150 token-days per call through
 * `/batchHistorical`; CoinGecko answers one token-day per call.
 */
import { TxaError } from '../core/errors.js';
import { DAY_SECONDS, parseDay } from '../core/dates.js';
import { TokenBucket } from '../sync/rate-limiter.js';
import { COINGECKO_PLATFORMS, DEFILLAMA_CHAINS, parseCoinKey } from './coins.js';
import { PriceHttp, unusable } from './http.js';
import { checkPrice, pointSeconds, withinDay } from './points.js';
import type { PriceSettings } from './settings.js';

export interface TokenDay {
  key: string;
  day: string;
}

export interface FetchedPrice extends TokenDay {
  /** Exact decimal USD; null when the source has none (cached as such). */
  price: string | null;
  price_ts: number | null;
  /** Why no price could be had this time (not cached: another run or plan may get it, or the source sent garbage). */
  failure?: string;
}

export interface PriceApi {
  readonly source: 'defillama' | 'coingecko';
  readonly http: PriceHttp;
  /** Each batch's answers, one per token-day asked. */
  fetch(wanted: TokenDay[]): AsyncGenerator<FetchedPrice[]>;
}

/** DefiLlama's coins per call: about 258 `ethereum:0x…` ids gave rotki 413/414 errors. */
export const DEFILLAMA_BATCH = 150;
/** rotki drops DefiLlama prices below this confidence as likely spam. */
const MIN_CONFIDENCE = 0.2;
const HALF_DAY = DAY_SECONDS / 2;

function joinUrl(base: string, path: string): URL {
  return new URL(base.replace(/\/+$/, '') + path);
}

/** What an answer says of one token-day. */
type Answer = Omit<FetchedPrice, keyof TokenDay>;
/** An answer's point, its time checked and in Unix seconds; its price as the JSON had it. */
interface Point {
  ts: number;
  price: unknown;
}
/** Points as an answer gave them, or what made them garbage. */
type Points = Point[] | { bad: string };

const NO_PRICE: Answer = { price: null, price_ts: null };
const MISSHAPEN = { bad: 'an answer not shaped as documented' };
const NO_TIME = { bad: 'a point without a valid time' };

/** Garbage from the source: a failure of the token-day, never cached (docs/prices.md, "Bad answers"). */
function garbage(name: string, what: string): Answer {
  return { price: null, price_ts: null, failure: `${name} sent ${what} (not cached)` };
}

/**
 * The day's price among an answer's points: points of other days are left out, one of the day
 * without a usable price makes the whole day garbage, and of the others the lowest `rank` wins.
 * No point of the day is "no price", which is cached.
 */
function priceOfDay(name: string, day: string, points: Points, rank: (ts: number) => number): Answer {
  if ('bad' in points) return garbage(name, points.bad);
  let best: { price: string; ts: number } | undefined;
  for (const p of points) {
    if (!withinDay(p.ts, day)) continue;
    const checked = checkPrice(p.price);
    if ('bad' in checked) return garbage(name, checked.bad);
    if (!best || rank(p.ts) < rank(best.ts)) best = { price: checked.price, ts: p.ts };
  }
  return best ? { price: best.price, price_ts: best.ts } : NO_PRICE;
}

export class DefiLlama implements PriceApi {
  readonly source = 'defillama';
  readonly http: PriceHttp;

  constructor(
    private readonly settings: PriceSettings,
    onRetry?: (message: string) => void,
  ) {
    // rotki's pace for DefiLlama: 1.5 calls per second, bursts of 10.
    this.http = new PriceHttp('DefiLlama', new TokenBucket(settings.rps ?? 1.5, settings.rps ? undefined : 10), settings.limits, onRetry);
  }

  async *fetch(wanted: TokenDay[]): AsyncGenerator<FetchedPrice[]> {
    for (let i = 0; i < wanted.length; i += DEFILLAMA_BATCH) yield this.batch(wanted.slice(i, i + DEFILLAMA_BATCH));
  }

  /** Asks for each token-day at its noon, ±12 h: the day's price point nearest noon. */
  private async batch(wanted: TokenDay[]): Promise<FetchedPrice[]> {
    const coins: Record<string, number[]> = {};
    const noonOf = (day: string) => parseDay(day)! + HALF_DAY;
    for (const w of wanted) (coins[llamaId(w.key)] ??= []).push(noonOf(w.day));
    const url = joinUrl(this.settings.defillamaUrl, '/batchHistorical');
    url.searchParams.set('coins', JSON.stringify(coins));
    url.searchParams.set('searchWidth', '12h');
    const { status, body } = await this.http.get(url);
    const answered = (body as { coins?: unknown } | undefined)?.coins;
    if (status !== 200 || answered === null || typeof answered !== 'object') throw unusable('DefiLlama', `HTTP ${status} without a coins object`);
    const byCoin = new Map<string, Points>();
    return wanted.map((w) => {
      const id = llamaId(w.key);
      if (!byCoin.has(id)) byCoin.set(id, llamaPoints((answered as Record<string, unknown>)[id]));
      const noon = noonOf(w.day);
      return { ...w, ...priceOfDay(this.http.name, w.day, byCoin.get(id)!, (ts) => Math.abs(ts - noon)) };
    });
  }
}

/**
 * A coin's points in a `/batchHistorical` answer, those below MIN_CONFIDENCE left out as likely
 * spam. A coin the answer lacks has none. A point without a valid time or confidence cannot be
 * told apart from the coin's other days, so it makes all of them garbage.
 */
function llamaPoints(coin: unknown): Points {
  if (coin === undefined) return [];
  const prices = (coin as { prices?: unknown } | null)?.prices;
  if (!Array.isArray(prices)) return MISSHAPEN;
  const points: Point[] = [];
  for (const p of prices as ({ timestamp?: unknown; price?: unknown; confidence?: unknown } | null)[]) {
    const ts = pointSeconds(p?.timestamp, 1);
    if (ts === null) return NO_TIME;
    const confidence = p!.confidence;
    if (confidence !== undefined && (typeof confidence !== 'number' || !Number.isFinite(confidence))) return { bad: 'a point without a valid confidence' };
    if (confidence === undefined || confidence >= MIN_CONFIDENCE) points.push({ ts, price: p!.price });
  }
  return points;
}

function llamaId(key: string): string {
  const coin = parseCoinKey(key);
  return 'coingeckoId' in coin ? key : `${DEFILLAMA_CHAINS[coin.chain] ?? coin.chain}:${coin.address}`;
}

/** `/history`'s snapshot at the day's 00:00 UTC; an answer without `market_data` has no price that day. */
// biome-ignore lint/suspicious/noExplicitAny: JSON read field by field, each checked where it is used
function historyPoints(b: Record<string, any>, start: number): Points {
  if (b.market_data === undefined) return [];
  const current: unknown = b.market_data?.current_price;
  if (current === null || typeof current !== 'object') return MISSHAPEN;
  const usd = (current as { usd?: unknown }).usd;
  return usd === undefined ? [] : [{ ts: start, price: usd }];
}

/** `market_chart/range`'s `prices`: `[milliseconds, price]` pairs. */
function rangePoints(prices: unknown): Points {
  if (!Array.isArray(prices)) return MISSHAPEN;
  const points: Point[] = [];
  for (const p of prices) {
    if (!Array.isArray(p)) return MISSHAPEN;
    const ts = pointSeconds(p[0], 1000);
    if (ts === null) return NO_TIME;
    points.push({ ts, price: p[1] });
  }
  return points;
}

/** CoinGecko's answer for a day beyond the plan's window (Public and Demo: the last 365 days). */
const BEYOND_WINDOW = 10012;

export class CoinGecko implements PriceApi {
  readonly source = 'coingecko';
  readonly http: PriceHttp;

  constructor(
    private readonly settings: PriceSettings,
    onRetry?: (message: string) => void,
  ) {
    if (!settings.coingeckoKey) {
      throw new TxaError('SYNC_UNAUTHORIZED', 'prices from CoinGecko need an API key, and TXA_COINGECKO_API_KEY is not set', {
        hint: 'Get a free Demo key at https://www.coingecko.com/en/api and set TXA_COINGECKO_API_KEY, or use the default source, DefiLlama, which needs none.',
      });
    }
    // The Demo plan: about 30 calls a minute.
    this.http = new PriceHttp('CoinGecko', new TokenBucket(settings.rps ?? 0.5, 1), settings.limits, onRetry);
  }

  async *fetch(wanted: TokenDay[]): AsyncGenerator<FetchedPrice[]> {
    for (const w of wanted) yield [await this.one(w)];
  }

  private async one(w: TokenDay): Promise<FetchedPrice> {
    const coin = parseCoinKey(w.key);
    const start = parseDay(w.day)!;
    let url: URL;
    if ('coingeckoId' in coin) {
      // The day's snapshot at 00:00 UTC.
      url = joinUrl(this.settings.coingeckoUrl, `/coins/${encodeURIComponent(coin.coingeckoId)}/history`);
      url.searchParams.set('date', w.day.split('-').reverse().join('-'));
      url.searchParams.set('localization', 'false');
    } else {
      url = joinUrl(this.settings.coingeckoUrl, `/coins/${COINGECKO_PLATFORMS[coin.chain]}/contract/${coin.address}/market_chart/range`);
      url.searchParams.set('vs_currency', 'usd');
      url.searchParams.set('from', String(start));
      url.searchParams.set('to', String(start + DAY_SECONDS));
    }
    const { status, body } = await this.http.get(url, { [this.keyHeader()]: this.settings.coingeckoKey! });
    // biome-ignore lint/suspicious/noExplicitAny: JSON read field by field, each checked where it is used
    const b = (body ?? {}) as Record<string, any>;
    const code = b.error?.status?.error_code ?? b.status?.error_code;
    if (code === BEYOND_WINDOW) return { ...w, price: null, price_ts: null, failure: "older than CoinGecko's 365-day window for Public and Demo keys" };
    if (status === 401 || status === 403) {
      const message = b.error?.status?.error_message ?? b.status?.error_message ?? `HTTP ${status}`;
      throw new TxaError('SYNC_UNAUTHORIZED', `CoinGecko refused the API key: ${message}`, {
        hint: 'Check TXA_COINGECKO_API_KEY (a Demo key uses api.coingecko.com, a Pro key pro-api.coingecko.com in TXA_COINGECKO_URL).',
      });
    }
    // An id or contract CoinGecko does not know: no price, like a day it has none for.
    if (status === 404) return { ...w, price: null, price_ts: null };
    if (status !== 200) throw unusable('CoinGecko', `HTTP ${status}`);
    const points =
      body === null || typeof body !== 'object' || Array.isArray(body) ? MISSHAPEN : 'coingeckoId' in coin ? historyPoints(b, start) : rangePoints(b.prices);
    // The history's one snapshot, or the range's first point of the day.
    return { ...w, ...priceOfDay(this.http.name, w.day, points, (ts) => ts) };
  }

  private keyHeader(): string {
    return new URL(this.settings.coingeckoUrl).hostname.startsWith('pro-api.') ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
  }
}

export const PRICE_SOURCES = ['defillama', 'coingecko'] as const;

/** The client of `--source` (DefiLlama by default). */
export function priceApi(source: string | undefined, settings: PriceSettings, onRetry?: (message: string) => void): PriceApi {
  if (source === undefined || source === 'defillama') return new DefiLlama(settings, onRetry);
  if (source === 'coingecko') return new CoinGecko(settings, onRetry);
  throw new TxaError('USAGE_ERROR', `--source must be one of ${PRICE_SOURCES.join(', ')}, got '${source}'`, { field: 'source' });
}
