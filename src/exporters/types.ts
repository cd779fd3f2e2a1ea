/**
 * What every export writer receives: the export's metadata and a way to read its rows (as often
 * as the writer needs, e.g. a PDF summary pass then a detail pass), streamed from the ledger so
 * memory stays flat. Writers write to `destPath` (a temp file the engine renames when done).
 */
import type { ExportFormat, HistoryEntry, ReportNote, Summary, Tag, Transaction, Workspace } from '../core/types.js';
import type { TxFilter } from '../core/filters.js';
import type { Db } from '../store/db.js';
import type { AssetTable } from '../accounting/assets.js';
import type { LedgerRow, LotPick } from '../accounting/tax-ledger.js';
import type { AllocatedLot } from '../accounting/allocation.js';
import type { BrokerLine } from '../accounting/form8949.js';
import type { LedgerBatch, LedgerRead } from '../store/ledger-read.js';
import type { CsvColumn, ExportOptions, ReportType } from '../core/export-values.js';
import type { LedgerCatalog } from '../store/catalog.js';

/** One change of a transaction from the event log, for the audit report. */
export type { HistoryEntry } from '../core/types.js';

/** One group of a grouped export (`options.group_by`), in group order. */
export interface ExportGroup {
  /** `YYYY-MM` (month), wallet label, tag name or `(untagged)`, token symbol. */
  key: string;
  /** Totals of the group's rows, converted like the rows. */
  summary: Summary;
  /** The group's rows in timestamp order, values converted. */
  rows(): Iterable<Transaction>;
  /** The ids of the group's rows in the same order, without loading the rows. */
  ids(): Iterable<string>;
}

/** A file ledger's path, and whether no commit has happened since the job's snapshot was taken (a second reader may then share it). */
export interface Snapshot {
  path: string;
  unchanged(): boolean;
}

/** What a second thread reads of the tax ledger (plain data, for the file worker) and how this thread makes rows of it. */
export interface LedgerSource {
  read: LedgerRead;
  decode(batch: LedgerBatch): Iterable<{ tx: LedgerRow; reported: boolean }>;
  /** Whether the lots come from at least `n` rows (the report's own rows may be far fewer). */
  hasRows(n: number): boolean;
  /** Rows after the last batch's (opening lots dated after every row, engine/opening-rows.ts). */
  rest?(): Iterable<{ tx: LedgerRow; reported: boolean }>;
}

export interface ExportJob {
  exportId: string;
  workspace: Workspace;
  createdAt: string;
  format: ExportFormat;
  reportType?: ReportType;
  /** The filters as the request gave them (echoed in JSON exports and report headers). */
  filters: Record<string, unknown>;
  options: ExportOptions;
  columns: CsvColumn[];
  /** Period shown on reports: the filter's dates, else the first and last transaction's days. */
  period: { start: string | null; end: string | null };
  transactionCount: number;
  /** The workspace's tags: a transaction's tags carry no type, reports look it up here. */
  tags: readonly Pick<Tag, 'id' | 'name' | 'type'>[];
  /** Totals of the whole filter, already converted to `options.currency`. */
  summary: Summary;
  /** Rows in timestamp order, values converted to `options.currency`; may be called several times. */
  rows(): Iterable<Transaction>;
  /**
   * The tax and income reports' input: every row of the workspace up to the period's end, in
   * timestamp order, read as the tax ledger reads them and converted, each `reported` when the
   * export's filter selects it. The lots
   * come from all of them (own transfers and the universal pool cross wallets and chains), the
   * report's lines from the reported ones.
   */
  ledgerRows(): Iterable<{ tx: LedgerRow; reported: boolean }>;
  /**
   * The same rows for a second reader (tax and income reports): what the file worker reads as
   * batches of records (store/ledger-read.ts, without tx_hash), how this thread makes rows of a
   * batch, and, on a file ledger, the job's snapshot (the worker may read only while unchanged).
   */
  ledgerSource?: LedgerSource & { snapshot?: Snapshot };
  /**
   * What the tax ledger takes from the workspace, read when called: its wallet ids in the order
   * they were added, the specific-identification picks by disposing transaction id, and the
   * recorded transition allocation (null when none was recorded: the ledger computes FIFO's).
   */
  taxBooks(): { walletOrder: string[]; picks: ReadonlyMap<string, readonly LotPick[]>; allocation: AllocatedLot[] | null; transitionAt?: string };
  /** Which tokens are one asset: the default table and the ledger's `assets.json`, read when called. */
  assets(): AssetTable;
  /**
   * Present when the rows need no currency conversion: where `rows()` reads them (the job's read
   * snapshot and filter), so a writer may select them with SQL itself; `transaction` reads one.
   */
  unconverted?: {
    db: Db;
    workspaceId: string;
    filter: TxFilter;
    transaction: (id: string) => Transaction;
    snapshot?: Snapshot;
  };
  /**
   * Present when `options.group_by` is set: the groups in order. A transaction with several
   * tags is in each of its tag groups; untagged ones are in `(untagged)`, last.
   */
  groups?: () => ExportGroup[];
  /** The workspace's broker (1099-DA) lines, read once when first called (docs/import.md "1099-DA"). */
  brokerLines(): BrokerLine[];
  /** A price imported for the symbol on the day (`txa prices import`) in the export's currency, as decimal text; else null. */
  cachedPrice(symbol: string, day: string): string | null;
  /** Whether a wallet is self-custody (an address wallet): its disposals are never on a broker's form. */
  selfCustody(walletId: string): boolean;
  /** Journals: the workspace's wallets and holdings, read when called. */
  catalog(): LedgerCatalog;
  /** The row `id` when the export's filter selects it, converted like `rows()`, else null (journals pair own-transfer legs). */
  selected(id: string): Transaction | null;
  /** Change history of each of these transactions (audit), read together; a transaction without any is absent. */
  histories(transactionIds: readonly string[]): Map<string, HistoryEntry[]>;
  /** Path of a stored attachment file (audit embeds them). */
  attachmentPath(attachmentId: string): string;
  /** Called as rows are written, with the count so far. */
  onProgress(done: number): void;
  /** The notes of a report over the export's period and wallets (docs/periods.md, "Report notes"), read when called. */
  notes?(): ReportNote[];
  /** The findings among `notes` (all but the rate notes): a second thread may count them. */
  findings?(): ReportNote[];
  /** The filter `findings` counts over (the export's), for that second thread. */
  notesFilter?: TxFilter;
}

export interface WriteResult {
  bytes: number;
  /** SHA-256 (hex) of the file, when the writer computed it on the way; else the engine reads the file back. */
  sha256?: string;
}

export type ExportWriter = (job: ExportJob, destPath: string) => Promise<WriteResult>;
