/**
 * The one seam between the commands (CLI, HTTP routes) and the data. The local engine on SQLite
 * and the remote HTTP client both implement it; the conformance tests run the same cases
 * against both. Request bodies and query strings are passed in their API form and validated
 * by the implementation, so both backends answer bad input with the same codes.
 */
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
} from './types.js';
import type { Allocation, LotPick, OpenLots, PicksDeleted } from './lots.js';
import type { Schedule, ScheduleRun } from './schedule-schema.js';
import type { OpeningImport, OpeningLot, OpeningsRemoved } from './opening-lots.js';
import type { Invitation, InvitationAccepted, InvitationSent, Member, MemberRemoved } from './members.js';

export interface Backend {
  readonly kind: 'local' | 'remote';

  createTag(workspaceId: string, body: unknown): Promise<Tag>;
  listTags(workspaceId: string): Promise<Tag[]>;
  updateTag(workspaceId: string, tagId: string, body: unknown): Promise<Tag>;
  deleteTag(workspaceId: string, tagId: string): Promise<Deleted>;

  listTransactions(workspaceId: string, query: QueryParams): Promise<TransactionPage>;
  getTransaction(workspaceId: string, txId: string): Promise<Transaction>;
  /** Body `{notes?: string|null, tag_ids?: string[]}`; `tag_ids` replaces the set. */
  updateTransaction(workspaceId: string, txId: string, body: unknown): Promise<Transaction>;
  /** Body `{tag_ids: string[]}`. */
  tagTransaction(workspaceId: string, txId: string, body: unknown): Promise<Transaction>;
  untagTransaction(workspaceId: string, txId: string, tagId: string): Promise<Transaction>;
  attachFile(workspaceId: string, txId: string, file: UploadedFile): Promise<Attachment>;
  /** The transaction's changes, oldest first (docs/transfers.md "The audit trail"). */
  transactionHistory(workspaceId: string, txId: string): Promise<HistoryEntry[]>;

  /** Own transfers (docs/accounting.md "Own transfers"): `status` matched | candidate, `page`, `limit`. */
  listTransfers(workspaceId: string, query: QueryParams): Promise<Page<Transfer>>;
  /** Body `{transaction_id, counterpart_id}`: the user matches two rows. */
  createTransfer(workspaceId: string, body: unknown): Promise<Transfer>;
  deleteTransfer(workspaceId: string, transferId: string): Promise<Deleted>;

  listWallets(workspaceId: string, query: QueryParams): Promise<Page<Wallet>>;
  /** Body `{address, chain, label?}` (docs/reference/api.md "WalletCreate"). */
  createWallet(workspaceId: string, body: unknown): Promise<Wallet>;
  /** Body `{label}`. */
  updateWallet(workspaceId: string, walletId: string, body: unknown): Promise<Wallet>;
  /** Removes the wallet with its transactions. */
  deleteWallet(workspaceId: string, walletId: string): Promise<Deleted>;
  /** Queues a sync for `txa serve`'s worker, or answers the wallet's queued or running one. */
  requestWalletSync(workspaceId: string, walletId: string): Promise<WalletSyncRecord>;
  /** The wallet's newest sync. */
  walletSyncStatus(workspaceId: string, walletId: string): Promise<WalletSyncRecord>;

  createExport(workspaceId: string, body: unknown): Promise<ExportRecord>;
  getExport(workspaceId: string, exportId: string): Promise<ExportRecord>;
  listExports(workspaceId: string, query: QueryParams): Promise<Page<ExportRecord>>;
  /** Ends a queued or processing export as `failed` with EXPORT_CANCELLED; returns the record. */
  cancelExport(workspaceId: string, exportId: string): Promise<ExportRecord>;
  /** Writes the file of a completed, unexpired export to `destPath` (atomically); returns its size. */
  downloadExport(workspaceId: string, exportId: string, destPath: string): Promise<{ path: string; bytes: number }>;

  createWebhook(workspaceId: string, body: unknown): Promise<Webhook & { secret: string }>;
  listWebhooks(workspaceId: string): Promise<Webhook[]>;
  deleteWebhook(workspaceId: string, webhookId: string): Promise<Deleted>;

  /** Scheduled reports (docs/server.md "Scheduled reports"): Pro and Enterprise workspaces; free is TIER_LIMIT. */
  createSchedule(workspaceId: string, body: unknown): Promise<Schedule>;
  listSchedules(workspaceId: string): Promise<Schedule[]>;
  deleteSchedule(workspaceId: string, scheduleId: string): Promise<Deleted>;
  /** Exports the schedule's last complete period now and delivers it like an export (its job runs in the background). */
  runSchedule(workspaceId: string, scheduleId: string): Promise<ScheduleRun>;

  listEvents(workspaceId: string, query: QueryParams): Promise<Page<EventRecord>>;

  /** Lots (docs/lots.md): the lots open at the end of the day `at` (default today); `wallet_id`, `asset` narrow them. */
  listLots(workspaceId: string, query: QueryParams): Promise<OpenLots>;
  /** The recorded transition allocation (NOT_FOUND while none is). */
  getLotAllocation(workspaceId: string): Promise<Allocation>;
  /** Body `{at?, order?, cost_basis?, dry_run?, replace?, lines?: [{wallet, lot, quantity}]}`: computes and records it (emits lots.allocated). */
  createLotAllocation(workspaceId: string, body: unknown): Promise<Allocation>;
  /** Picks of specific identification, of one disposal (`disposal_id`) or all. */
  listLotPicks(workspaceId: string, query: QueryParams): Promise<LotPick[]>;
  /** Body `{disposal_id, picks: [{lot, quantity?}]}`: records them (emits lots.picked); returns the disposal's picks. */
  createLotPicks(workspaceId: string, body: unknown): Promise<LotPick[]>;
  /** Removes a disposal's picks (emits lots.unpicked when there were any). */
  deleteLotPicks(workspaceId: string, disposalId: string): Promise<PicksDeleted>;
  /** Opening lots (docs/lots.md "Opening lots"), by day. */
  listOpeningLots(workspaceId: string): Promise<OpeningLot[]>;
  /** Body `{csv | lines, file_name?, allow_late?, dry_run?}`: adds the lots not already held (emits lots.imported). */
  importOpeningLots(workspaceId: string, body: unknown): Promise<OpeningImport>;
  /** Removes one import's opening lots (emits lots.openings_removed). */
  removeOpeningLots(workspaceId: string, importId: string): Promise<OpeningsRemoved>;
  /** Closed periods (docs/periods.md): every through-date ever closed, with its state and history. */
  listPeriods(workspaceId: string): Promise<Period[]>;
  /** Body `{through, note?}`: closes every day through `through`, recording the digests. */
  closePeriod(workspaceId: string, body: unknown): Promise<Period>;
  /** Body `{through, reason}`: reopens the latest close. */
  reopenPeriod(workspaceId: string, body: unknown): Promise<Period>;

  /** Members (docs/server.md "Teams"): those not removed, oldest first. */
  listMembers(workspaceId: string): Promise<Member[]>;
  /** Body `{email, role}`: an invitation, e-mailed when an SMTP server is configured; its token is in the answer once. */
  inviteMember(workspaceId: string, body: unknown): Promise<InvitationSent>;
  /** Body `{role}`. */
  updateMember(workspaceId: string, memberId: string, body: unknown): Promise<Member>;
  /** Removes the member and revokes its keys. */
  removeMember(workspaceId: string, memberId: string): Promise<MemberRemoved>;
  /** Every invitation with its state, newest first. */
  listInvitations(workspaceId: string): Promise<Invitation[]>;
  /** Revokes a pending invitation. */
  revokeInvitation(workspaceId: string, invitationId: string): Promise<Invitation>;
  /** Body `{email}`: the token is the credential (no key needed); answers the member and its key, shown once. */
  acceptInvitation(token: string, body: unknown): Promise<InvitationAccepted>;

  close(): Promise<void>;
}
