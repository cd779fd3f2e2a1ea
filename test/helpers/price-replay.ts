/**
 * A replay DefiLlama and CoinGecko on 127.0.0.1 for the price tests, answering in the exact shapes
 * of docs/prices.md:
 * - DefiLlama `GET /batchHistorical?coins=<URL-encoded JSON {id: [ts…]}>&searchWidth=` →
 *   `{"coins":{id:{"symbol","prices":[{"timestamp","price","confidence"}]}}}`; the timestamp is the
 *   nearest stored point (shifted from the one asked), an unknown coin is absent.
 * - CoinGecko `GET /coins/{id}/history?date=dd-mm-yyyy` → `{"id","symbol","name","market_data":
 *   {"current_price":{"usd",…}}}`, and `/coins/{platform}/contract/{address}/market_chart/range`
 *   → `{"prices":[[ms, price]],…}`; a day before `coingeckoWall` is HTTP 401 with error 10012.
 * Every call is recorded; queued faults answer the next calls instead.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endless } from './explorer-replay.js';

/**
 * A stored price point: the price and how far (seconds) it lies from the day's noon. Bad points
 * as a broken API might send them: any `price` (a string, null, ±Infinity, written `1e999`), any
 * `confidence`, a timestamp `at` as the API writes it (DefiLlama seconds, CoinGecko milliseconds)
 * in place of the usual one, and `extra` points in the API's own shape answered before this one.
 */
export interface Point {
  price: unknown;
  shift?: number;
  confidence?: unknown;
  at?: unknown;
  extra?: unknown[];
}

export interface Fault {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** A 200 that never ends (the explorer replay's endless body). */
  endless?: true;
}

export interface PriceReplay {
  url: string;
  /** Points by the API's coin id (`coingecko:ethereum`, `ethereum:0x…`, `avax:0x…`) and UTC day. */
  points: Record<string, Record<string, Point>>;
  /** DefiLlama's point for any coin and day `points` lacks, when set. */
  fallback?: Point;
  /** Every call's path and query, in order. */
  calls: URL[];
  faults: Fault[];
  /** CoinGecko refuses days before this one (10012), as its Public and Demo plans do. */
  coingeckoWall: string;
  close(): Promise<void>;
}

const _NOON = 43_200;
const dayOfTs = (ts: number) => new Date((ts - (ts % 86_400)) * 1000).toISOString().slice(0, 10);

/** JSON text, with ±Infinity written as `±1e999`, which JSON.parse reads back as ±Infinity. */
function jsonText(body: unknown): string {
  const text = JSON.stringify(body, (_k, v: unknown) => (v === Infinity || v === -Infinity ? `\u0000${v < 0 ? '-' : ''}1e999` : v));
  return text.replace(/"\\u0000(-?1e999)"/g, '$1');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : jsonText(body));
}

function batchHistorical(server: PriceReplay, url: URL): unknown {
  const asked = JSON.parse(url.searchParams.get('coins') ?? '{}') as Record<string, number[]>;
  const coins: Record<string, unknown> = {};
  for (const [id, stamps] of Object.entries(asked)) {
    const known = server.points[id];
    if (!known && !server.fallback) continue;
    const prices = stamps.flatMap((ts) => {
      const p = known?.[dayOfTs(ts)] ?? server.fallback;
      return p ? [...(p.extra ?? []), { timestamp: p.at ?? ts + (p.shift ?? -922), price: p.price, confidence: p.confidence ?? 0.99 }] : [];
    });
    coins[id] = { symbol: id.split(':')[1]!.slice(0, 6).toUpperCase(), prices };
  }
  return { coins };
}

const WALL = {
  error: {
    status: {
      timestamp: '2024-04-20T22:00:05.123+00:00',
      error_code: 10012,
      error_message:
        'Your request exceeds the allowed time range. Public API users are limited to querying historical data within the past 365 days. Upgrade to a paid plan to enjoy full historical data access: https://www.coingecko.com/en/api/pricing. ',
    },
  },
};

function coingecko(server: PriceReplay, url: URL, res: ServerResponse): void {
  const history = /^\/coins\/([^/]+)\/history$/.exec(url.pathname);
  const range = /^\/coins\/([^/]+)\/contract\/([^/]+)\/market_chart\/range$/.exec(url.pathname);
  if (history) {
    const [d, m, y] = (url.searchParams.get('date') ?? '').split('-');
    const day = `${y}-${m}-${d}`;
    if (day < server.coingeckoWall) return send(res, 401, WALL);
    const p = server.points[`coingecko:${history[1]}`]?.[day];
    const base = { id: history[1], symbol: 'eth', name: 'Ethereum', image: {} };
    const eur = typeof p?.price === 'number' ? p.price * 0.9 : p?.price;
    return send(res, 200, p ? { ...base, market_data: { current_price: { usd: p.price, eur }, market_cap: {}, total_volume: {} } } : base);
  }
  if (range) {
    const from = Number(url.searchParams.get('from'));
    const day = dayOfTs(from);
    if (day < server.coingeckoWall) return send(res, 401, WALL);
    const p = server.points[`${range[1]}:${range[2]}`]?.[day];
    if (!server.points[`${range[1]}:${range[2]}`]) return send(res, 404, { error: 'coin not found' });
    return send(res, 200, { prices: p ? [...(p.extra ?? []), [p.at ?? (from + 300) * 1000, p.price]] : [], market_caps: [], total_volumes: [] });
  }
  send(res, 404, { error: 'Not Found' });
}

export async function priceReplay(): Promise<PriceReplay> {
  const server: PriceReplay = { url: '', points: {}, calls: [], faults: [], coingeckoWall: '1970-01-01', close: async () => undefined };
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    server.calls.push(new URL(url));
    const fault = server.faults.shift();
    if (fault?.endless) return endless(res);
    if (fault) return send(res, fault.status, fault.body ?? '', fault.headers);
    if (url.pathname === '/llama/batchHistorical') return send(res, 200, batchHistorical(server, url));
    if (url.pathname.startsWith('/cg/')) {
      if (req.headers['x-cg-demo-api-key'] !== 'cg-key') return send(res, 401, { status: { error_code: 10002, error_message: 'API Key Missing' } });
      url.pathname = url.pathname.slice(3);
      return coingecko(server, url, res);
    }
    send(res, 404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.close = () => new Promise((resolve) => http.close(() => resolve()));
  return server;
}
