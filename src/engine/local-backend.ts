/** The local `Backend`: the engine on a SQLite ledger, in this process. */
import type { Backend } from '../core/backend.js';
import type { QueryParams, UploadedFile } from '../core/types.js';
import { TxaError } from '../core/errors.js';
import { Engine, type EngineOptions } from './engine.js';
import * as tags from './tags.js';
import * as txs from './transactions.js';
import * as wallets from './wallets.js';
import * as events from './events.js';
import * as webhooks from './webhooks.js';

function notYet(what: string): never {
  throw new TxaError('LOCAL_ONLY', `${what} is not available in this build`);
}

export class LocalBackend implements Backend {
  readonly kind = 'local' as const;

  constructor(readonly engine: Engine) {}

  static open(path: string, opts: EngineOptions = {}): LocalBackend {
    return new LocalBackend(Engine.open(path, opts));
  }

  async createTag(ws: string, body: unknown) {
    return tags.createTag(this.engine, ws, body);
  }
  async listTags(ws: string) {
    return tags.listWorkspaceTags(this.engine, ws);
  }
  async updateTag(ws: string, id: string, body: unknown) {
    return tags.updateTag(this.engine, ws, id, body);
  }
  async deleteTag(ws: string, id: string) {
    return tags.deleteTag(this.engine, ws, id);
  }

  async listTransactions(ws: string, query: QueryParams) {
    return txs.listTransactions(this.engine, ws, query);
  }
  async getTransaction(ws: string, id: string) {
    this.engine.workspace(ws);
    return txs.getTransaction(this.engine, ws, id);
  }
  async updateTransaction(ws: string, id: string, body: unknown) {
    return txs.updateTransaction(this.engine, ws, id, body);
  }
  async tagTransaction(ws: string, id: string, body: unknown) {
    return txs.tagTransaction(this.engine, ws, id, body);
  }
  async untagTransaction(ws: string, id: string, tagId: string) {
    return txs.untagTransaction(this.engine, ws, id, tagId);
  }
  async attachFile(ws: string, id: string, file: UploadedFile) {
    return txs.attachFile(this.engine, ws, id, file);
  }

  async listWallets(ws: string, query: QueryParams) {
    return wallets.listWallets(this.engine, ws, query);
  }

  async createExport(ws: string, body: unknown) {
    const { createExport } = await import('./exports.js');
    return createExport(this.engine, ws, body);
  }
  async getExport(ws: string, id: string) {
    const { getExport } = await import('./exports.js');
    return getExport(this.engine, ws, id);
  }
  async listExports(ws: string, query: QueryParams) {
    const { listExports } = await import('./exports.js');
    return listExports(this.engine, ws, query);
  }
  async downloadExport(ws: string, id: string, dest: string) {
    const { downloadExport } = await import('./exports.js');
    return downloadExport(this.engine, ws, id, dest);
  }

  async createWebhook(ws: string, body: unknown) {
    return webhooks.createWebhook(this.engine, ws, body);
  }
  async listWebhooks(ws: string) {
    return webhooks.listWebhooks(this.engine, ws);
  }
  async deleteWebhook(ws: string, id: string) {
    return webhooks.deleteWebhook(this.engine, ws, id);
  }

  async listEvents(ws: string, query: QueryParams) {
    return events.listEvents(this.engine, ws, query, webhooks.deliveryLookup(this.engine));
  }

  async close() {
    this.engine.close();
  }
}
