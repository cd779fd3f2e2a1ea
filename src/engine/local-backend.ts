/** The local `Backend`: the engine on a SQLite ledger, in this process. */
import type { Backend } from '../core/backend.js';
import type { QueryParams, UploadedFile } from '../core/types.js';
import { TxaError } from '../core/errors.js';
import { Engine, type EngineOptions } from './engine.js';
import * as tags from './tags.js';
import * as txs from './transactions.js';
import * as wallets from './wallets.js';
import * as events from './events.js';

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

  async createExport(_ws: string, _body: unknown): Promise<never> {
    notYet('export create');
  }
  async getExport(_ws: string, _id: string): Promise<never> {
    notYet('export status');
  }
  async listExports(_ws: string, _query: QueryParams): Promise<never> {
    notYet('export list');
  }
  async downloadExport(_ws: string, _id: string, _dest: string): Promise<never> {
    notYet('export download');
  }

  async createWebhook(_ws: string, _body: unknown): Promise<never> {
    notYet('webhooks add');
  }
  async listWebhooks(_ws: string): Promise<never> {
    notYet('webhooks list');
  }
  async deleteWebhook(_ws: string, _id: string): Promise<never> {
    notYet('webhooks remove');
  }

  async listEvents(ws: string, query: QueryParams) {
    return events.listEvents(this.engine, ws, query);
  }

  async close() {
    this.engine.close();
  }
}
