/**
 * The HTTP `Backend`: every operation as the API request of docs/reference/api.md, through `ApiClient`.
 * It sends bodies and query strings as the CLI built them; the server validates them, so bad
 * input gets the same codes as on the local backend.
 */
import type { Backend } from '../core/backend.js';
import { TxaError } from '../core/errors.js';
import { OutFile } from '../files/out-file.js';
import type {
  Attachment,
  Deleted,
  EventRecord,
  ExportRecord,
  HistoryEntry,
  Page,
  Period,
  QueryParams,
  Tag,
  Transaction,
  TransactionPage,
  Transfer,
  UploadedFile,
  Wallet,
  WalletSyncRecord,
  Webhook,
} from '../core/types.js';
import type { Allocation, LotPick, OpenLots, PicksDeleted } from '../core/lots.js';
import type { Schedule, ScheduleRun } from '../core/schedule-schema.js';
import type { OpeningImport, OpeningLot, OpeningsRemoved } from '../core/opening-lots.js';
import type { Invitation, InvitationAccepted, InvitationSent, Member, MemberRemoved } from '../core/members.js';
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

  private async data<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, ws: string, json?: unknown, query: QueryParams = {}): Promise<T> {
    const body = await this.client.send<Ok<T>>({ method, path, query: { ...query, workspace_id: ws }, json });
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
  createWallet(ws: string, body: unknown) {
    return this.data<Wallet>('POST', '/wallets', ws, withWorkspace(body, ws));
  }
  updateWallet(ws: string, id: string, body: unknown) {
    return this.data<Wallet>('PATCH', `/wallets/${seg(id)}`, ws, body);
  }
  deleteWallet(ws: string, id: string) {
    return this.data<Deleted>('DELETE', `/wallets/${seg(id)}`, ws);
  }
  requestWalletSync(ws: string, id: string) {
    return this.data<WalletSyncRecord>('POST', `/wallets/${seg(id)}/sync`, ws);
  }
  walletSyncStatus(ws: string, id: string) {
    return this.data<WalletSyncRecord>('GET', `/wallets/${seg(id)}/sync`, ws);
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
  cancelExport(ws: string, id: string) {
    return this.data<ExportRecord>('POST', `/exports/${seg(id)}/cancel`, ws);
  }
  /** Fetches the signed `download_url` into a temp file beside `destPath`, then renames it (src/files/out-file.ts). */
  async downloadExport(ws: string, id: string, destPath: string) {
    const record = await this.getExport(ws, id);
    if (record.status === 'expired')
      throw new TxaError('EXPORT_EXPIRED', `export ${id} expired at ${record.expires_at}; its file is deleted`, { hint: 'Create a new export.' });
    if (record.status !== 'completed' || !record.download_url) {
      throw new TxaError('EXPORT_NOT_READY', `export ${id} is ${record.status}; there is no file to download`, {
        hint: `Check it with: txa export status ${id}`,
      });
    }
    const out = new OutFile(destPath);
    const res = await this.client.stream(record.download_url);
    const where = record.download_url.split('?')[0];
    return out.stream(
      res.body,
      (err) => new TxaError('CONNECTION_ERROR', `download of export ${id} from ${where} failed: ${(err as Error).message}`, { cause: err }),
    );
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

  createSchedule(ws: string, body: unknown) {
    return this.data<Schedule>('POST', '/schedules', ws, withWorkspace(body, ws));
  }
  listSchedules(ws: string) {
    return this.data<Schedule[]>('GET', '/schedules', ws);
  }
  deleteSchedule(ws: string, id: string) {
    return this.data<Deleted>('DELETE', `/schedules/${seg(id)}`, ws);
  }
  runSchedule(ws: string, id: string) {
    return this.data<ScheduleRun>('POST', `/schedules/${seg(id)}/run`, ws, { workspace_id: ws });
  }

  listEvents(ws: string, query: QueryParams) {
    return this.page<Page<EventRecord>>('/events', ws, query);
  }

  listLots(ws: string, query: QueryParams) {
    return this.data<OpenLots>('GET', '/lots', ws, undefined, query);
  }
  getLotAllocation(ws: string) {
    return this.data<Allocation>('GET', '/lots/allocation', ws);
  }
  createLotAllocation(ws: string, body: unknown) {
    return this.data<Allocation>('POST', '/lots/allocation', ws, withWorkspace(body, ws));
  }
  listLotPicks(ws: string, query: QueryParams) {
    return this.data<LotPick[]>('GET', '/lots/picks', ws, undefined, query);
  }
  createLotPicks(ws: string, body: unknown) {
    return this.data<LotPick[]>('POST', '/lots/picks', ws, withWorkspace(body, ws));
  }
  deleteLotPicks(ws: string, disposalId: string) {
    return this.data<PicksDeleted>('DELETE', `/lots/picks/${seg(disposalId)}`, ws);
  }
  listOpeningLots(ws: string) {
    return this.data<OpeningLot[]>('GET', '/lots/openings', ws);
  }
  importOpeningLots(ws: string, body: unknown) {
    return this.data<OpeningImport>('POST', '/lots/openings', ws, withWorkspace(body, ws));
  }
  removeOpeningLots(ws: string, importId: string) {
    return this.data<OpeningsRemoved>('DELETE', `/lots/openings/${seg(importId)}`, ws);
  }
  listPeriods(ws: string) {
    return this.data<Period[]>('GET', '/periods', ws);
  }
  closePeriod(ws: string, body: unknown) {
    return this.data<Period>('POST', '/periods', ws, withWorkspace(body, ws));
  }
  reopenPeriod(ws: string, body: unknown) {
    return this.data<Period>('POST', '/periods/reopen', ws, withWorkspace(body, ws));
  }

  listMembers(ws: string) {
    return this.data<Member[]>('GET', `/workspaces/${seg(ws)}/members`, ws);
  }
  inviteMember(ws: string, body: unknown) {
    return this.data<InvitationSent>('POST', `/workspaces/${seg(ws)}/members`, ws, body);
  }
  updateMember(ws: string, id: string, body: unknown) {
    return this.data<Member>('PATCH', `/workspaces/${seg(ws)}/members/${seg(id)}`, ws, body);
  }
  removeMember(ws: string, id: string) {
    return this.data<MemberRemoved>('DELETE', `/workspaces/${seg(ws)}/members/${seg(id)}`, ws);
  }
  listInvitations(ws: string) {
    return this.data<Invitation[]>('GET', `/workspaces/${seg(ws)}/invitations`, ws);
  }
  revokeInvitation(ws: string, id: string) {
    return this.data<Invitation>('DELETE', `/workspaces/${seg(ws)}/invitations/${seg(id)}`, ws);
  }
  /** No key needed: the token is the credential. */
  async acceptInvitation(token: string, body: unknown) {
    const res = await this.client.send<Ok<InvitationAccepted>>({ method: 'POST', path: `/invitations/${seg(token)}/accept`, json: body });
    return res.data;
  }

  async close() {
    await this.client.close();
  }
}

/** POST bodies name their workspace (docs/server.md "API decisions"); a non-object body is sent as is, for the server to refuse. */
function withWorkspace(body: unknown, ws: string): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? { workspace_id: ws, ...body } : body;
}
