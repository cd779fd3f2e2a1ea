/**
 * The HTTP `Backend`: every operation as the API request of CONTRACT §3/§4, through `ApiClient`.
 * It sends bodies and query strings as the CLI built them; the server validates them, so bad
 * input gets the same codes as on the local backend.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Backend } from '../core/backend.js';
import { TxaError } from '../core/errors.js';
import type {
  Attachment, Deleted, EventRecord, ExportRecord, HistoryEntry, Page, QueryParams, Tag, Transaction, TransactionPage, Transfer, UploadedFile, Wallet,
  Webhook,
} from '../core/types.js';
import { ApiClient, type ClientOptions } from './api-client.js';

export type RemoteOptions = ClientOptions;

interface Ok<T> {
  success: true;
  data: T;
}

const seg = encodeURIComponent;

export class RemoteBackend implements Backend {
  readonly kind = 'remote' as const;
  private readonly client: ApiClient;

  constructor(opts: RemoteOptions) {
    this.client = new ApiClient(opts);
  }

  private async data<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, ws: string, json?: unknown): Promise<T> {
    const body = await this.client.send<Ok<T>>({ method, path, query: { workspace_id: ws }, json });
    return body.data;
  }

  private async page<P>(path: string, ws: string, query: QueryParams): Promise<P> {
    const { success: _ok, ...rest } = await this.client.send<{ success: true } & P>({ method: 'GET', path, query: { ...query, workspace_id: ws } });
    return rest as unknown as P;
  }

  createTag(ws: string, body: unknown) {
    return this.data<Tag>('POST', '/tags', ws, withWorkspace(body, ws));
  }
  listTags(ws: string) {
    return this.data<Tag[]>('GET', '/tags', ws);
  }
  updateTag(ws: string, id: string, body: unknown) {
    return this.data<Tag>('PATCH', `/tags/${seg(id)}`, ws, body);
  }
  deleteTag(ws: string, id: string) {
    return this.data<Deleted>('DELETE', `/tags/${seg(id)}`, ws);
  }

  listTransactions(ws: string, query: QueryParams) {
    return this.page<TransactionPage>('/transactions', ws, query);
  }
  getTransaction(ws: string, id: string) {
    return this.data<Transaction>('GET', `/transactions/${seg(id)}`, ws);
  }
  updateTransaction(ws: string, id: string, body: unknown) {
    return this.data<Transaction>('PATCH', `/transactions/${seg(id)}`, ws, body);
  }
  tagTransaction(ws: string, id: string, body: unknown) {
    return this.data<Transaction>('POST', `/transactions/${seg(id)}/tags`, ws, body);
  }
  untagTransaction(ws: string, id: string, tagId: string) {
    return this.data<Transaction>('DELETE', `/transactions/${seg(id)}/tags/${seg(tagId)}`, ws);
  }
  async attachFile(ws: string, id: string, file: UploadedFile) {
    const body = await this.client.send<Ok<Attachment>>({
      method: 'POST',
      path: `/transactions/${seg(id)}/attachments`,
      query: { workspace_id: ws },
      raw: { data: file.data, contentType: file.content_type, headers: { 'x-file-name': encodeURIComponent(file.file_name) } },
    });
    return body.data;
  }

  transactionHistory(ws: string, id: string) {
    return this.data<HistoryEntry[]>('GET', `/transactions/${seg(id)}/history`, ws);
  }

  listTransfers(ws: string, query: QueryParams) {
    return this.page<Page<Transfer>>('/transfers', ws, query);
  }
  createTransfer(ws: string, body: unknown) {
    return this.data<Transfer>('POST', '/transfers', ws, withWorkspace(body, ws));
  }
  deleteTransfer(ws: string, id: string) {
    return this.data<Deleted>('DELETE', `/transfers/${seg(id)}`, ws);
  }

  listWallets(ws: string, query: QueryParams) {
    return this.page<Page<Wallet>>('/wallets', ws, query);
  }

  createExport(ws: string, body: unknown) {
    return this.data<ExportRecord>('POST', '/exports', ws, withWorkspace(body, ws));
  }
  getExport(ws: string, id: string) {
    return this.data<ExportRecord>('GET', `/exports/${seg(id)}`, ws);
  }
  listExports(ws: string, query: QueryParams) {
    return this.page<Page<ExportRecord>>('/exports', ws, query);
  }
  /** Fetches the signed `download_url` into a temp file beside `destPath`, then renames it. */
  async downloadExport(ws: string, id: string, destPath: string) {
    const record = await this.getExport(ws, id);
    if (record.status === 'expired') throw new TxaError('EXPORT_EXPIRED', `export ${id} expired at ${record.expires_at}; its file is deleted`, { hint: 'Create a new export.' });
    if (record.status !== 'completed' || !record.download_url) {
      throw new TxaError('EXPORT_NOT_READY', `export ${id} is ${record.status}; there is no file to download`, { hint: `Check it with: txa export status ${id}` });
    }
    const dest = resolve(destPath);
    const dir = dirname(dest);
    if (!(await stat(dir).catch(() => null))?.isDirectory()) {
      throw new TxaError('USAGE_ERROR', `cannot write ${destPath}: directory ${dir} does not exist`, { field: 'out', hint: 'Create the directory first, or pass another --out PATH.' });
    }
    const res = await this.client.stream(record.download_url);
    const tmp = `${dest}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(res.body, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new TxaError('CONNECTION_ERROR', `download of export ${id} from ${record.download_url.split('?')[0]} failed: ${(err as Error).message}`, { cause: err });
    }
    return { path: dest, bytes: (await stat(dest)).size };
  }

  createWebhook(ws: string, body: unknown) {
    return this.data<Webhook & { secret: string }>('POST', '/webhooks', ws, withWorkspace(body, ws));
  }
  listWebhooks(ws: string) {
    return this.data<Webhook[]>('GET', '/webhooks', ws);
  }
  deleteWebhook(ws: string, id: string) {
    return this.data<Deleted>('DELETE', `/webhooks/${seg(id)}`, ws);
  }

  listEvents(ws: string, query: QueryParams) {
    return this.page<Page<EventRecord>>('/events', ws, query);
  }

  async close() {
    await this.client.close();
  }
}

/** POST bodies name their workspace (API.md 4.1, 4.4); a non-object body is sent as is, for the server to refuse. */
function withWorkspace(body: unknown, ws: string): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? { workspace_id: ws, ...body } : body;
}
