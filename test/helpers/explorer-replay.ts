/**
 * A replay explorer on 127.0.0.1 for the sync tests: it answers `module=account` list calls in
 * the exact envelope of Etherscan V2 and Blockscout (docs/sync.md: HTTP 200
 * even for errors, `No transactions found` with an empty result), from per-list rows sorted by
 * block, honouring `startblock`, `endblock`, `page`, `offset` and `sort=asc`, optionally capping a
 * page below the `offset` asked for; and Blockscout's REST `/api/v2/transactions/{hash}` (404
 * `{"message":"Not found"}` for a hash it does not hold). Faults are queued: the next calls get
 * them instead of rows.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Row = Record<string, string>;

export type Fault =
  /** An HTTP status with a small body (429, 500, 401, …). */
  | { status: number; body?: string }
  /** A 200 whose body is this text (malformed JSON). */
  | { text: string }
  /** A 200 with this envelope (NOTOK messages, Blockscout status "2"). */
  | { envelope: { status: string; message: string; result: unknown } }
  /** Part of a good answer, then the connection is cut. */
  | { reset: true }
  /** A 200 that opens a list and then sends whitespace until the client hangs up. */
  | { endless: true }
  /** A good answer, one byte a `dripMs` after the headers. */
  | { drip: true; dripMs: number };

export interface ReplayServer {
  url: string;
  /** Rows per action (`txlist`, `txlistinternal`, `tokentx`, `txsBeaconWithdrawal`). */
  lists: Record<string, Row[]>;
  /** Blockscout REST bodies by transaction hash (`/api/v2/transactions/{hash}`). */
  transactions: Record<string, object>;
  /** Every call's query, in order; a REST call as `transaction=HASH`. */
  calls: URLSearchParams[];
  /** Rows per page at most, whatever `offset` asks (servers that cap below the page size). */
  cap: number;
  /** The answer to the next calls, one fault per call, before any rows. */
  faults: Fault[];
  /** A fault for every call after the first `alwaysAfter` (an invalid key, an unserved chain, a server down). */
  always?: Fault;
  alwaysAfter: number;
  /** Calls from this one on (1-based) are never answered: a process can be killed while it waits. */
  stallFrom: number;
  /** Rewrites each page of rows before it is sent (rows repeated, stale or drifting). */
  mangle?: (action: string, page: Row[], q: URLSearchParams) => Row[];
  /** Answer every list from block 0 whatever `startblock` asks (a server that ignores it). */
  ignoreStart: boolean;
  /** The envelope's message for an empty list (Blockscout words it per list). */
  emptyMessage: (action: string) => string;
  /** Back to a new server's state with these rows: no calls, faults, cap or stall. */
  reset(lists: Record<string, Row[]>): void;
  close(): Promise<void>;
}

/** A new server's state. */
function fresh(lists: Record<string, Row[]>): Omit<ReplayServer, 'url' | 'reset' | 'close'> {
  return {
    lists,
    transactions: {},
    calls: [],
    cap: Infinity,
    faults: [],
    always: undefined,
    alwaysAfter: 0,
    stallFrom: Infinity,
    mangle: undefined,
    ignoreStart: false,
    emptyMessage: () => 'No transactions found',
  };
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

function answer(server: ReplayServer, q: URLSearchParams): { status: string; message: string; result: unknown } {
  const rows = server.lists[q.get('action') ?? ''];
  if (!rows) return { status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Action name' };
  const start = server.ignoreStart ? 0 : Number(q.get('startblock') ?? 0);
  const endParam = q.get('endblock');
  const end = endParam === null || endParam === 'latest' ? Infinity : Number(endParam);
  const page = Number(q.get('page') ?? 1);
  const offset = Number(q.get('offset') ?? 10_000);
  if (page * offset > 10_000)
    return { status: '0', message: 'NOTOK', result: 'Result window is too large, PageNo x Offset size must be less than or equal to 10000' };
  const size = Math.min(offset, server.cap);
  const inRange = rows.filter((r) => Number(r.blockNumber) >= start && Number(r.blockNumber) <= end);
  const sliced = inRange.slice((page - 1) * size, page * size);
  const result = server.mangle ? server.mangle(q.get('action')!, sliced, q) : sliced;
  return result.length > 0 ? { status: '1', message: 'OK', result } : { status: '0', message: server.emptyMessage(q.get('action')!), result: [] };
}

function handle(server: ReplayServer, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const rest = /\/v2\/transactions\/([^/]+)$/.exec(url.pathname)?.[1];
  const q = rest === undefined ? url.searchParams : new URLSearchParams({ transaction: rest });
  server.calls.push(q);
  if (server.calls.length >= server.stallFrom) return;
  const fault = server.faults.shift() ?? (server.calls.length > server.alwaysAfter ? server.always : undefined);
  if (!fault && rest !== undefined) {
    const tx = server.transactions[rest];
    return tx ? send(res, 200, JSON.stringify(tx)) : send(res, 404, JSON.stringify({ message: 'Not found' }));
  }
  if (!fault) return send(res, 200, JSON.stringify(answer(server, q)));
  if ('status' in fault) return send(res, fault.status, fault.body ?? '{}');
  if ('text' in fault) return send(res, 200, fault.text);
  if ('envelope' in fault) return send(res, 200, JSON.stringify(fault.envelope));
  if ('endless' in fault) return endless(res);
  if ('drip' in fault) return drip(res, JSON.stringify(answer(server, q)), fault.dripMs);
  const body = JSON.stringify(answer(server, q));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
  res.write(body.slice(0, Math.floor(body.length / 2)));
  setTimeout(() => res.socket?.destroy(), 10);
}

/** A 200 that never ends: a list opened, then 1 MiB of spaces at a time for as long as the client reads. */
export function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"status":"1","message":"OK","result":[');
  const spaces = Buffer.alloc(1024 * 1024, ' ');
  const more = () => {
    while (!res.destroyed && res.write(spaces));
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

/** `body`, one byte every `ms`, until it is sent or the client hangs up. */
function drip(res: ServerResponse, body: string, ms: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body[i++]!);
  }, ms);
}

export async function replayServer(lists: Record<string, Row[]> = {}): Promise<ReplayServer> {
  const server: ReplayServer = {
    url: '',
    ...fresh(lists),
    reset: (rows) => Object.assign(server, fresh(rows)),
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
  const http = createServer((req, res) => handle(server, req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v2/api`;
  const close = server.close;
  server.close = () => {
    http.closeAllConnections();
    return close();
  };
  return server;
}

/** The explorers' answer envelopes (docs/sync.md "Chains and sources"), verbatim. */
export const ENVELOPES = {
  rateLimit: { status: '0', message: 'NOTOK', result: 'Max rate limit reached, please use API Key for higher rate limit' },
  invalidKey: { status: '0', message: 'NOTOK', result: 'Invalid API Key' },
  dailyLimit: { status: '0', message: 'NOTOK', result: 'Max daily rate limit reached. 100000 (100%) of 100000 requests reached' },
  freeTierChain: {
    status: '0',
    message: 'NOTOK',
    result: 'Free API access is not supported for this chain. Please upgrade your api plan for full chain coverage. https://etherscan.io/apis',
  },
};
