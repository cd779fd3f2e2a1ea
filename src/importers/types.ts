/**
 * What every importer produces: transactions in a normalised form, in file order, plus the rows
 * it could not read. The engine (engine/imports.ts) resolves wallets, derives identities and
 * writes everything in one database transaction.
 */
import type { Chain, Direction, TxType } from '../core/types.js';
import type { SpamReason } from '../accounting/spam.js';

/** `txa import --format` values; `auto` detects the format from the content. */
export const IMPORT_FORMATS = [
  'auto',
  'json',
  'ndjson',
  'csv',
  'etherscan',
  'koinly',
  'rotki',
  'coinbase',
  'kraken',
  'binance',
  'gemini',
  'exchange-csv',
] as const;

/** A wallet as a file names it (native JSON carries wallet_id/wallet_label; CSVs name none). */
export interface WalletRef {
  id?: string;
  label?: string;
  address?: string;
  chain?: Chain;
}

export interface ImportRecord {
  /** 1-based line (CSV, NDJSON) or element index (JSON array) in the source, for error messages. */
  line: number;
  /** Absent when the file names no wallet: the engine uses `--wallet`. */
  wallet?: WalletRef;
  tx_hash: string;
  /** Optional explicit id (round trip of this tool's JSON export). */
  id?: string;
  from_address: string;
  to_address: string;
  token: { symbol: string; address: string | null; decimals: number };
  /** Canonical non-negative decimal in token units (core/money normalizeDecimal). */
  amount: string;
  /** Decimal text in the workspace's base currency (or in `fiat_currency`), or null when the source has no value. */
  fiat_value: string | null;
  /**
   * The currency `fiat_value` is in, when the file states one (exchange files): the engine converts
   * it to the workspace's with the ledger's rates, and a day without a rate is a bad row.
   */
  fiat_currency?: string;
  direction: Direction;
  type: TxType;
  /** Unix seconds, UTC. */
  timestamp: number;
  notes: string | null;
  /** Value moved by an internal call (a trace), keyed apart from the tx's own value (engine/imports.ts). */
  internal?: boolean;
  /** The explorer's method name or 4-byte selector of the transaction, where the source names one. */
  method?: string;
  /** Why the row is spam by its content (accounting/spam.ts); the engine settles it against the ledger. */
  spam?: SpamReason;
  /** Block number and the transaction's index in it, where the source gives them (docs/accounting.md "Order within one second"). */
  block?: number;
  block_position?: number;
  /** Tag names (created in the workspace when missing, with the given type or `neutral`). */
  tags?: { name: string; type?: string; color?: string }[];
}

/** A CSV record (importers/csv.ts). */
export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

export interface RowError {
  line: number;
  field: string;
  reason: string;
}

export interface ParseResult {
  format: string;
  records: ImportRecord[];
  errors: RowError[];
  /** Rows read but deliberately not imported (e.g. a token-tracker row not touching the wallet), with why. */
  skipped: { line: number; reason: string }[];
}

/** What an importer may know beyond the file: the wallet chosen with `--wallet`, the file name, `--token-address`. */
export interface ImportContext {
  /**
   * An exchange wallet (`kind` `exchange`) reaches only the importers that read exchange files and
   * this tool's JSON (engine/imports.ts refuses the others); its `chain` is then the store's
   * internal `exchange` and its address its id (docs/storage.md "Exchange wallets").
   */
  wallet?: { id: string; address: string; chain: Chain; label: string; kind: 'address' | 'exchange'; exchange: string | null };
  fileName: string;
  /** The token of a token-tracker export, which names it only in the download's file name. */
  tokenAddress?: string;
  /** The workspace's base currency, for sources that state a value's currency (Koinly's Net Worth). */
  baseCurrency?: string;
}

export interface Importer {
  readonly format: string;
  /** True for sources that name no wallet (explorer, Koinly, rotki, exchanges): they need `--wallet`. */
  readonly needsWallet?: boolean;
  /** True for an exchange's files, read into an exchange wallet only (docs/import.md "Exchange files"). */
  readonly exchange?: boolean;
  /** Whether this importer reads a file with this header (CSV) or first value (JSON). */
  detect(sample: { header?: string[]; text: string }): boolean;
  parse(text: string, ctx: ImportContext): ParseResult;
  /**
   * A CSV format read as a stream (the exchange files, docs/import.md "Large files"): its records
   * (header included) in, results out in batches, each handed on before the next rows are read.
   * A batch never cuts what must be read together (a trade's rows); `parse` is all of it at once.
   */
  stream?(records: Iterable<CsvRow>, ctx: ImportContext): Iterable<ParseResult>;
}
