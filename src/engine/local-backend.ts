/** The local `Backend`: the engine on a SQLite ledger, in this process. */
import type { Backend } from '../core/backend.js';
import type { QueryParams, UploadedFile } from '../core/types.js';
import { Engine, type EngineOptions } from './engine.js';
import * as txs from './transactions.js';
import { listWorkspaceTags } from './tag-list.js';
import type { RunOptions } from './export-jobs.js';

// Modules other than the read path load on first use: `txa tx list` should not pay for
// zod and the writers (bench/RESULTS.md).
const tags = () => import('./tags.js');
const edits = () => import('./transaction-edits.js');
const wallets = () => import('./wallets.js');
const events = () => import('./events.js');
const webhooks = () => import('./webhooks.js');
const schedules = () => import('./schedules.js');
const exports = () => import('./exports.js');
const transfers = () => import('./transfers.js');
const history = () => import('./history.js');
const walletSyncs = () => import('./wallet-syncs.js');
const lots = () => import('./lots.js');
const lotAllocation = () => import('./lot-allocation.js');
const lotPicks = () => import('./lot-picks.js');
const openingLots = () => import('./opening-lots.js');
const periods = () => import('./periods.js');
const members = () => import('./members.js');

export class LocalBackend implements Backend {
  readonly kind = 'local' as const;

  constructor(readonly engine: Engine) {}

  static open(path: string, opts: EngineOptions = {}): LocalBackend {
    return new LocalBackend(Engine.open(path, opts));
  }

  /**
   * This backend (subclass included) acting as another identity, recorded as `created_by`:
   * `txa serve` acts as the request's API key. Shares the engine's database and state.
   */
  as(actor: string): this {
    return Object.create(this, { engine: { value: this.engine.as(actor) } }) as this;
  }

  async createTag(ws: string, body: unknown) {
    return (await tags()).createTag(this.engine, ws, body);
  }
  async listTags(ws: string) {
    return listWorkspaceTags(this.engine, ws);
  }
  async updateTag(ws: string, id: string, body: unknown) {
    return (await tags()).updateTag(this.engine, ws, id, body);
  }
  async deleteTag(ws: string, id: string) {
    return (await tags()).deleteTag(this.engine, ws, id);
  }

  async listTransactions(ws: string, query: QueryParams) {
    return txs.listTransactions(this.engine, ws, query);
  }
  async getTransaction(ws: string, id: string) {
    this.engine.workspace(ws);
    return txs.getTransaction(this.engine, ws, id);
  }
  async updateTransaction(ws: string, id: string, body: unknown) {
    return (await edits()).updateTransaction(this.engine, ws, id, body);
  }
  async tagTransaction(ws: string, id: string, body: unknown) {
    return (await edits()).tagTransaction(this.engine, ws, id, body);
  }
  async untagTransaction(ws: string, id: string, tagId: string) {
    return (await edits()).untagTransaction(this.engine, ws, id, tagId);
  }
  async attachFile(ws: string, id: string, file: UploadedFile) {
    return (await edits()).attachFile(this.engine, ws, id, file);
  }

  async transactionHistory(ws: string, id: string) {
    return (await history()).transactionHistory(this.engine, ws, id);
  }

  async listTransfers(ws: string, query: QueryParams) {
    return (await transfers()).listTransfers(this.engine, ws, query);
  }
  async createTransfer(ws: string, body: unknown) {
    return (await transfers()).matchTransfer(this.engine, ws, body);
  }
  async deleteTransfer(ws: string, id: string) {
    return (await transfers()).unmatchTransfer(this.engine, ws, id);
  }

  async listWallets(ws: string, query: QueryParams) {
    return (await wallets()).listWallets(this.engine, ws, query);
  }
  async createWallet(ws: string, body: unknown) {
    return (await wallets()).createWallet(this.engine, ws, body);
  }
  async updateWallet(ws: string, id: string, body: unknown) {
    return (await wallets()).updateWalletLabel(this.engine, ws, id, body);
  }
  async deleteWallet(ws: string, id: string) {
    return (await wallets()).removeWallet(this.engine, ws, id);
  }
  async requestWalletSync(ws: string, id: string) {
    return (await walletSyncs()).requestWalletSync(this.engine, ws, id);
  }
  async walletSyncStatus(ws: string, id: string) {
    return (await walletSyncs()).walletSyncStatus(this.engine, ws, id);
  }

  /** `opts` (the CLI's): the role `cli` claims an e-mail/webhook job for this process to run next. */
  async createExport(ws: string, body: unknown, opts?: RunOptions) {
    return (await exports()).createExport(this.engine, ws, body, opts);
  }
  async getExport(ws: string, id: string) {
    return (await exports()).getExport(this.engine, ws, id);
  }
  async listExports(ws: string, query: QueryParams) {
    return (await exports()).listExports(this.engine, ws, query);
  }
  async cancelExport(ws: string, id: string) {
    return (await exports()).cancelExport(this.engine, ws, id);
  }
  async downloadExport(ws: string, id: string, dest: string) {
    return (await exports()).downloadExport(this.engine, ws, id, dest);
  }

  async createWebhook(ws: string, body: unknown) {
    return (await webhooks()).createWebhook(this.engine, ws, body);
  }
  async listWebhooks(ws: string) {
    return (await webhooks()).listWebhooks(this.engine, ws);
  }
  async deleteWebhook(ws: string, id: string) {
    return (await webhooks()).deleteWebhook(this.engine, ws, id);
  }

  async createSchedule(ws: string, body: unknown) {
    return (await schedules()).createSchedule(this.engine, ws, body);
  }
  async listSchedules(ws: string) {
    return (await schedules()).listSchedules(this.engine, ws);
  }
  async deleteSchedule(ws: string, id: string) {
    return (await schedules()).deleteSchedule(this.engine, ws, id);
  }
  async runSchedule(ws: string, id: string) {
    return (await schedules()).runSchedule(this.engine, ws, id);
  }

  async listEvents(ws: string, query: QueryParams) {
    return (await events()).listEvents(this.engine, ws, query, (await webhooks()).deliveryLookup(this.engine));
  }

  async listLots(ws: string, query: QueryParams) {
    return (await lots()).listOpenLots(this.engine, ws, query);
  }
  async getLotAllocation(ws: string) {
    return (await lotAllocation()).getAllocation(this.engine, ws);
  }
  async createLotAllocation(ws: string, body: unknown) {
    return (await lotAllocation()).createAllocation(this.engine, ws, body);
  }
  async listLotPicks(ws: string, query: QueryParams) {
    return (await lotPicks()).listLotPicks(this.engine, ws, query);
  }
  async createLotPicks(ws: string, body: unknown) {
    return (await lotPicks()).createLotPicks(this.engine, ws, body);
  }
  async deleteLotPicks(ws: string, disposalId: string) {
    return (await lotPicks()).deleteLotPicks(this.engine, ws, disposalId);
  }
  async listOpeningLots(ws: string) {
    return (await openingLots()).listOpenings(this.engine, ws);
  }
  async importOpeningLots(ws: string, body: unknown) {
    return (await openingLots()).importOpeningLots(this.engine, ws, body);
  }
  async removeOpeningLots(ws: string, importId: string) {
    return (await openingLots()).removeOpenings(this.engine, ws, importId);
  }
  async listPeriods(ws: string) {
    return (await periods()).listPeriods(this.engine, ws);
  }
  async closePeriod(ws: string, body: unknown) {
    return (await periods()).closePeriod(this.engine, ws, body);
  }
  async reopenPeriod(ws: string, body: unknown) {
    return (await periods()).reopenPeriod(this.engine, ws, body);
  }

  async listMembers(ws: string) {
    return (await members()).listMembers(this.engine, ws);
  }
  async inviteMember(ws: string, body: unknown) {
    return (await members()).inviteMember(this.engine, ws, body);
  }
  async updateMember(ws: string, id: string, body: unknown) {
    return (await members()).updateMember(this.engine, ws, id, body);
  }
  async removeMember(ws: string, id: string) {
    return (await members()).removeMember(this.engine, ws, id);
  }
  async listInvitations(ws: string) {
    return (await members()).listInvitations(this.engine, ws);
  }
  async revokeInvitation(ws: string, id: string) {
    return (await members()).revokeInvitation(this.engine, ws, id);
  }
  async acceptInvitation(token: string, body: unknown) {
    return (await members()).acceptInvitation(this.engine, token, body);
  }

  async close() {
    this.engine.close();
  }
}
