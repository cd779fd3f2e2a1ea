/** Domain types: the resource shapes of docs/reference/api.md "Resources and request bodies", exactly as the API sends them. */
import type { JurisdictionCode } from './jurisdictions.js';

export const CHAINS = [
  'ethereum',
  'polygon',
  'arbitrum',
  'bsc',
  'base',
  'optimism',
  'linea',
  'avalanche',
  'gnosis',
  'scroll',
  'zksync',
  'blast',
  'mantle',
  'celo',
  'bitcoin',
] as const;
export type Chain = (typeof CHAINS)[number];

/** docs/storage.md "Exchange wallets": a wallet is an address on a chain, or a custodial account at an exchange. */
export const WALLET_KINDS = ['address', 'exchange'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];
export const EXCHANGES = ['coinbase', 'kraken', 'binance', 'gemini', 'other'] as const;
export type Exchange = (typeof EXCHANGES)[number];

export const DIRECTIONS = ['inflow', 'outflow'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const TAG_TYPES = ['income', 'expense', 'neutral'] as const;
export type TagType = (typeof TAG_TYPES)[number];

export const TX_TYPES = ['transfer', 'swap', 'bridge', 'mint', 'burn', 'approval', 'contract_call', 'fee'] as const;
export type TxType = (typeof TX_TYPES)[number];

export const SORTS = ['timestamp_desc', 'timestamp_asc', 'amount_desc', 'amount_asc'] as const;
export type Sort = (typeof SORTS)[number];

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface Workspace {
  id: string;
  name: string;
  tier: Tier;
  base_currency: string;
  /** Its tax year, rules, report lines and default report currency (docs/accounting.md "Jurisdictions"). */
  jurisdiction: JurisdictionCode;
  /** Enterprise API requests per hour; null = unlimited. */
  rate_limit: number | null;
  created_at: string;
}

export interface Tag {
  id: string;
  name: string;
  type: TagType;
  color: string;
  description: string | null;
  workspace_id: string;
  created_by: string;
  created_at: string;
  usage_count: number;
}

export interface TagRef {
  id: string;
  name: string;
  color: string;
}

export interface Token {
  symbol: string;
  /** null for a chain's native coin. */
  address: string | null;
  decimals: number;
}

export interface Attachment {
  id: string;
  file_name: string;
  file_url: string;
  file_size: number;
  uploaded_at: string;
}

export interface Transaction {
  id: string;
  tx_hash: string;
  wallet_id: string;
  wallet_label: string;
  /** null for a row of an exchange wallet (docs/storage.md "Exchange wallets"). */
  chain: Chain | null;
  from_address: string;
  to_address: string;
  token: Token;
  /** Exact decimal in token units. */
  amount: string;
  /** Value in the workspace's base currency; null when the source had no price. */
  fiat_value: number | null;
  direction: Direction;
  type: TxType;
  timestamp: string;
  tags: TagRef[];
  notes: string | null;
  attachments: Attachment[];
  /** null for a row of an exchange wallet: no explorer shows it. */
  explorer_url: string | null;
  /** docs/accounting.md "Own transfers": the own transfer this row is a leg of; counterpart_id null when the other leg is not in the ledger. */
  transfer: { id: string; counterpart_id: string | null; kind: 'internal' | 'bridge' | 'exchange'; matched_by: 'auto' | 'user' | 'rule' } | null;
  fiat_value_source: 'import' | 'price' | 'manual' | null;
  spam: boolean;
}

export type TransferKind = NonNullable<Transaction['transfer']>['kind'];
export type TransferMatchedBy = NonNullable<Transaction['transfer']>['matched_by'];
export type FiatValueSource = NonNullable<Transaction['fiat_value_source']>;

/**
 * An own transfer (docs/accounting.md "Own transfers"): `matched`, with its id and who matched it, or a `candidate` the
 * engine proposes (id and matched_by null) for the user to confirm. One leg when the other is
 * not in the ledger.
 */
export interface Transfer {
  id: string | null;
  status: 'matched' | 'candidate';
  kind: TransferKind;
  matched_by: TransferMatchedBy | null;
  legs: Transaction[];
}

/** One change of a transaction (`txa tx history`, `GET /transactions/:id/history`). */
export interface HistoryEntry {
  event_id: string;
  event: string;
  created_at: string;
  /** The acting key's member id (docs/server.md "Teams") or `cli`; null for events written before txa recorded it. */
  actor: string | null;
  changes: Record<string, { old: unknown; new: unknown }>;
  /** An import's `transaction.created`: where the row came from. */
  source?: ImportSource;
}

/**
 * Where imported rows came from, recorded on each `transaction.created` (docs/transfers.md "The audit trail"): the file
 * (name, SHA-256, format), or for `wallet sync` the explorer, chain and list it fetched them from.
 */
export type ImportSource = { format: string } & (FileSource | SyncSource);
export type FileSource = { file_name: string; sha256: string };
export type SyncSource = { sync: string; chain: string; list: string };

export interface Pagination {
  total: number;
  page: number;
  pages: number;
  limit: number;
}

export interface Summary {
  total_inflow: number;
  total_outflow: number;
  net_flow: number;
  transaction_count: number;
}

export interface TransactionPage {
  data: Transaction[];
  pagination: Pagination;
  summary: Summary;
}

export interface TokenBalance {
  symbol: string;
  address: string | null;
  balance: string;
  fiat_value: number | null;
}

export interface Wallet {
  id: string;
  kind: WalletKind;
  /** The exchange of a `kind: "exchange"` wallet; null for an address. */
  exchange: Exchange | null;
  /** null for an exchange wallet, as is `chain`. */
  address: string | null;
  label: string;
  chain: Chain | null;
  balance: { native: string; tokens: TokenBalance[]; fiat_value: number };
  transaction_count: number;
  created_at: string;
  last_synced: string | null;
}

export const WALLET_SYNC_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type WalletSyncStatus = (typeof WALLET_SYNC_STATUSES)[number];

/**
 * A sync run by `txa serve` (docs/sync.md "Served"): `{id, wallet_id, status, new_transactions?, error?}`,
 * plus the fields of `wallet sync --json` (`chain` … `last_synced`) and its times.
 */
export interface WalletSyncRecord {
  id: string;
  wallet_id: string;
  status: WalletSyncStatus;
  chain: Chain;
  source: 'etherscan' | 'blockscout' | 'esplora' | null;
  new_transactions: number;
  duplicates: number;
  requests: number;
  last_block: number | null;
  last_synced: string | null;
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface EventRecord {
  id: string;
  type: string;
  workspace_id: string;
  created_at: string;
  /** The webhook body of the event (docs/server.md "Webhooks"). */
  payload: Record<string, unknown>;
  deliveries: DeliveryState[];
}

export interface DeliveryState {
  webhook_id: string | null;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; status_code: number | null; error: string | null }[];
  next_attempt_at: string | null;
}

export interface Deleted {
  id: string;
  deleted: true;
}

/** A raw query string, as the API receives it and the CLI builds it from flags. */
export type QueryParams = Record<string, string | undefined>;

export interface UploadedFile {
  file_name: string;
  content_type: string;
  data: Buffer;
}

/** `ledger` (hledger) and `beancount` are plain-text accounting journals (docs/journals.md). */
export const EXPORT_FORMATS = ['csv', 'pdf', 'json', 'ledger', 'beancount'] as const;
export const JOURNAL_FORMATS = ['ledger', 'beancount'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The file extension of each format: `<export_id>.<ext>`, the engine's file and the CLI's default `--out`. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'json', pdf: 'pdf', ledger: 'journal', beancount: 'beancount' };

export const EXPORT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** docs/reference/api.md "Export" for queued and failed jobs. */
export interface ExportRecord {
  id: string;
  status: ExportStatus;
  format: ExportFormat;
  report_type?: string;
  download_url?: string;
  file_size?: number;
  transaction_count?: number;
  created_at: string;
  expires_at?: string;
  progress?: number;
  estimated_completion?: string;
  status_url?: string;
  delivery?: { method: 'download' | 'email' | 'webhook'; email_recipients?: string[]; webhook_url?: string };
  error?: { code: string; message: string };
}

export interface Webhook {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  created_at: string;
}

/** docs/check.md "Balance assertions": "the wallet held exactly `balance` of the token at the end of `at` (UTC)". */
export interface BalanceAssertion {
  id: string;
  wallet_id: string;
  wallet_label: string;
  token: { symbol: string; address: string | null };
  /** Exact decimal in token units. */
  balance: string;
  /** `YYYY-MM-DD`: the end of that UTC day. */
  at: string;
  created_at: string;
}

/** Closed periods (docs/periods.md). */
/** What a close records of its period: the rows' digest and each report's (docs/periods.md, "Digests"). */
export interface PeriodDigests {
  rows: string;
  /** How `rows` was made (docs/periods.md "Digests"): 2 from the rows' kept hashes; absent on closes recorded before it (version 1). */
  rows_version?: number;
  reports: Record<string, string>;
}

/** One change of a period's state, oldest first. */
export interface PeriodChange {
  action: 'close' | 'reopen';
  at: string;
  actor: string;
  note: string | null;
  reason: string | null;
}

/** A through-date as `period list` shows it: its state (the latest change) and its history. */
export interface Period {
  workspace_id: string;
  through: string;
  status: 'closed' | 'reopened';
  /** The first day of the period the close covers (the day after the close before it), or null from the beginning. */
  from: string | null;
  note: string | null;
  closed_at: string;
  closed_by: string;
  reopened_at: string | null;
  reopened_by: string | null;
  reason: string | null;
  digests: PeriodDigests | null;
  history: PeriodChange[];
}

/** A note a report carries about findings that make its figures incomplete (docs/periods.md, "Report notes"). */
export interface ReportNote {
  /** The `txa check` kind. */
  kind: string;
  count: number;
  message: string;
}
