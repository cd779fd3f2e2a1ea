/**
 * The HTTP client under the remote backend (undici, one keep-alive Agent with connect, header
 * and body timeouts). API error bodies become the same TxaError the local engine throws, so the
 * CLI prints the same codes and exit codes; a 429 is retried after `Retry-After` a bounded number
 * of times (said on stderr); a server that cannot be reached is one CONNECTION_ERROR line.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import { TxaError, type ErrorBody } from '../core/errors.js';
import type { QueryParams } from '../core/types.js';

const MAX_RATE_RETRIES = 3;
/** A longer wait is not worth blocking a command for: the 429 is reported instead. */
const MAX_RETRY_WAIT_SECONDS = 60;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  onNotice?: (message: string) => void;
  /** For tests: how to wait before a retry. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestSpec {
  method: Dispatcher.HttpMethod;
  path: string;
  query?: QueryParams;
  json?: unknown;
  raw?: { data: Buffer; contentType: string; headers: Record<string, string> };
}

/**
 * The API root for a base URL given with or without a trailing `/v1` or `/api/v1`
 * (`https://h`, `https://h/v1`, `https://h/api/v1/` → `https://h/api/v1`).
 */
export function apiRoot(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TxaError('USAGE_ERROR', `the base URL '${baseUrl}' is not a URL`, { field: 'base-url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TxaError('USAGE_ERROR', `the base URL must be http(s), got '${baseUrl}'`, { field: 'base-url' });
  const path = url.pathname.replace(/\/+$/, '').replace(/(\/api)?\/v1$/, '');
  return `${url.origin}${path}/api/v1`;
}

function retryAfterSeconds(header: string | string[] | undefined, body: ErrorBody | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined) {
    if (/^\d+$/.test(value.trim())) return Number(value.trim());
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const fromBody = body?.error?.retry_after;
  return typeof fromBody === 'number' ? fromBody : null;
}

function connectionError(root: string, err: unknown): TxaError {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.message ?? e.message ?? e.code ?? String(err);
  return new TxaError('CONNECTION_ERROR', `cannot reach the txa API at ${root}: ${cause}`, { cause: err });
}

export class ApiClient {
  readonly root: string;
  private readonly agent = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 60_000, bodyTimeout: 120_000, keepAliveTimeout: 10_000 });
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    this.root = apiRoot(opts.baseUrl);
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  url(path: string, query: QueryParams = {}): string {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, v);
    const qs = search.toString();
    return `${this.root}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends a request; returns the success body, or throws the API's error. */
  async send<T>(spec: RequestSpec): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'txa-cli' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    // One key per logical POST, reused by its retries, so a retry never does the work twice.
    if (spec.method === 'POST') headers['idempotency-key'] = randomUUID();
    let body: string | Buffer | undefined;
    if (spec.raw) {
      body = spec.raw.data;
      Object.assign(headers, spec.raw.headers, { 'content-type': spec.raw.contentType });
    } else if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    }
    const url = this.url(spec.path, spec.query);
    for (let attempt = 0; ; attempt++) {
      let res: Dispatcher.ResponseData;
      let text: string;
      try {
        res = await request(url, { method: spec.method, headers, body, dispatcher: this.agent });
        text = await res.body.text();
      } catch (err) {
        throw connectionError(this.root, err);
      }
      const parsed = parseJson(text);
      if (res.statusCode >= 200 && res.statusCode < 300) {
        if (parsed === undefined) throw new TxaError('INTERNAL_ERROR', `the server at ${this.root} answered HTTP ${res.statusCode} without a JSON body`);
        return parsed as T;
      }
      const errorBody = isErrorBody(parsed) ? parsed : undefined;
      if (res.statusCode === 429) {
        const wait = retryAfterSeconds(res.headers['retry-after'], errorBody);
        if (wait !== null && wait <= MAX_RETRY_WAIT_SECONDS && attempt < MAX_RATE_RETRIES) {
          this.opts.onNotice?.(`Rate limited by ${this.root}; retrying in ${wait} s (retry ${attempt + 1} of ${MAX_RATE_RETRIES}).`);
          await this.sleep(wait * 1000);
          continue;
        }
      }
      if (errorBody) throw withHint(TxaError.fromBody(errorBody, res.statusCode));
      const code =
        res.statusCode === 401 ? 'UNAUTHORIZED' : res.statusCode === 404 ? 'NOT_FOUND' : res.statusCode === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR';
      throw new TxaError(code, `the server at ${this.root} answered HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200).replace(/\s+/g, ' ')}` : ''}`);
    }
  }

  /** A GET of a full URL (a signed download link): the response, or the API's error. */
  async stream(url: string): Promise<Dispatcher.ResponseData> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { method: 'GET', dispatcher: this.agent });
    } catch (err) {
      throw connectionError(this.root, err);
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    const parsed = parseJson(await res.body.text().catch(() => ''));
    if (isErrorBody(parsed)) throw TxaError.fromBody(parsed, res.statusCode);
    throw new TxaError('INTERNAL_ERROR', `the download link answered HTTP ${res.statusCode}`);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The next step for failures a user fixes on this side (gh prints one after a 401, too). */
function withHint(e: TxaError): TxaError {
  const hint =
    e.code === 'UNAUTHORIZED'
      ? 'The key comes from TXA_API_KEY, else the profile (txa config get api_key), else --api-key; `txa login` stores a new one.'
      : e.code === 'FORBIDDEN'
        ? "The key belongs to another workspace; pass its workspace with -w, or use that workspace's key."
        : undefined;
  return hint ? new TxaError(e.code, e.message, { field: e.field, extra: e.extra, hint }) : e;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(v: unknown): v is ErrorBody {
  const e = (v as { error?: { code?: unknown } } | undefined)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string';
}
