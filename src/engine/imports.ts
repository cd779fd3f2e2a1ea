/**
 * The import pipeline (docs/import.md): parse a file with its importer, resolve each record's wallet,
 * derive identities, and write everything in ONE database transaction: wallets named by native
 * JSON, missing tags, the transactions (rollups kept in step), their `transaction.created`
 * events, and one `wallet.synced` per wallet. Any invalid row means nothing is written and every
 * bad row is listed. `dryRun` runs the same transaction and rolls it back, so its counts are exact.
 * An import at least as large as the ledger builds the indexes of the tables it fills once, at
 * its end (store/bulk-write.ts).
 */
import { createHash } from 'node:crypto';
import Big from 'big.js';
import { basename } from 'node:path';
import { statSync } from 'node:fs';
import { EXCHANGE_CHAIN } from '../core/chains.js';
import type { Engine } from './engine.js';
import { insertNewWallet, publicWallet, requireWallet } from './wallets.js';
import { createTag } from './tags.js';
import { TxaError } from '../core/errors.js';
import { newId, transactionId } from '../core/ids.js';
import { nowIso, nowSeconds } from '../core/clock.js';
import { MAX_AMOUNT_DIGITS, amountKey, decimalToCents, integerDigits, normalizeDecimal, scaleOf } from '../core/money.js';
import type { Chain, FileSource, ImportSource, SyncSource, TagRef, Workspace } from '../core/types.js';
import {
  findWalletByAddress,
  getWallet,
  setWalletSynced,
  tagNameKey,
  tagRefByNameKey,
  walletIdTaken,
  walletCountOn,
  walletsLabelled,
  type WalletRow,
} from '../store/ledger.js';
import {
  batchEndAfterRowid,
  compareTagRefs,
  maxTransactionRowid,
  NO_TRANSFER,
  selectMatchRowsThrough,
  selectById,
  sourceOf,
  toTransaction,
  transactionExists,
  type TransactionRow,
} from '../store/transactions.js';
import { linkTag } from '../store/transaction-edits.js';
import { rateReader } from '../store/rates.js';
import { dayOf } from '../core/dates.js';
import { insertTransactions, updateValue } from '../store/insert-transactions.js';
import { withIndexesRebuilt, withLargeCache } from '../store/bulk-write.js';
import { withLinkTriggersDeferred } from '../store/bulk-links.js';
import { importerFor } from '../importers/index.js';
import { readImportFile, readImportPieces } from '../importers/read-file.js';
import { BATCH_ROWS, csvRows } from '../importers/csv.js';
import { Occurrences } from '../importers/occurrences.js';
import { isAddress } from '../importers/fields.js';
import type { ImportRecord, ParseResult, RowError, WalletRef } from '../importers/types.js';
import { changing } from './transaction-changes.js';
import { autoMatch } from './transfers.js';
import { recordSpamReasons, settleIncomingSpam } from './spam-tokens.js';
import type { SpamReason } from '../accounting/spam.js';
import { assertRowsOpen, closedThrough } from './periods.js';
import { newRowIds } from '../store/periods.js';

export interface ImportOptions {
  walletId?: string;
  format?: string;
  dryRun?: boolean;
  /** The token of a token-tracker export (`--token-address`), for the importer. */
  tokenAddress?: string;
  /** Told about each row read but deliberately not imported (the CLI prints the first few). */
  onSkipped?: (row: { line: number; reason: string }) => void;
  /** Runs on the new rows' ids inside the import's transaction, after matching (`--rules`). */
  onInserted?: (ids: string[]) => void;
  /** The file's content already read (an XLSX sheet as CSV text, importers/xlsx.ts) and the SHA-256 of its bytes. */
  content?: { text: string; sha256: string };
}

export interface ImportSummary {
  format: string;
  imported: number;
  duplicates: number;
  skipped: number;
  dry_run: boolean;
  /** Of `imported`, the rows flagged as spam (left out of lists and reports unless asked for; docs/transfers.md). */
  spam: number;
  wallets: { id: string; label: string; imported: number }[];
  /** Rows already stored whose fee value this file gives differently (the day's price), revalued. */
  revalued: number;
  /** Legs of own transfers matched automatically after the rows went in. */
  transfers_matched: number;
}

/** Bad rows an IMPORT_FAILED error lists, first by line; `error_count` says how many there are. */
export const LISTED_ERRORS = 100;

/** Thrown to roll back a dry run's transaction once its counts are known. */
class DryRunDone {
  constructor(readonly summary: ImportSummary) {}
}

/** importFile of any file: an XLSX workbook (Gemini's download) is read as the CSV text of its first sheet first (importers/xlsx.ts). */
export async function importAnyFile(engine: Engine, workspaceId: string, path: string, opts: Omit<ImportOptions, 'content'> = {}): Promise<ImportSummary> {
  const { isXlsx, xlsxAsCsv } = await import('../importers/xlsx.js');
  return importFile(engine, workspaceId, path, { ...opts, content: isXlsx(path) ? await xlsxAsCsv(path) : undefined });
}

export function importFile(engine: Engine, workspaceId: string, path: string, opts: ImportOptions = {}): ImportSummary {
  const ws = engine.workspace(workspaceId);
  const file = fileText(path, opts.content);
  const importer = importerFor(opts.format ?? 'auto', file.head);
  const wallet = opts.walletId ? requireWallet(engine, workspaceId, opts.walletId) : undefined;
  if (importer.needsWallet && !wallet) {
    throw new TxaError('USAGE_ERROR', `${importer.format} files name no wallet: pass ${importer.exchange ? '--wallet-id' : '--wallet'} ID`, {
      field: 'wallet',
      hint: importer.exchange
        ? `Add the account first (txa wallet add --exchange ${importer.format === 'exchange-csv' ? 'other' : importer.format} --label NAME), then list ids with: txa wallet list`
        : 'Add the wallet first (txa wallet add --address A --chain C), then list ids with: txa wallet list',
    });
  }
  // An exchange account takes exchange files and this tool's JSON, whose rows carry their tokens whole.
  if (wallet?.kind === 'exchange' && !importer.exchange && importer.format !== 'json' && importer.format !== 'ndjson') {
    throw new TxaError('USAGE_ERROR', `wallet ${wallet.id} is an exchange account; ${importer.format} files are read into address wallets`, {
      field: 'wallet',
      hint: 'An exchange wallet imports coinbase, kraken, binance, gemini and exchange-csv files (docs/import.md "Exchange files").',
    });
  }
  const ctx = {
    wallet: wallet && {
      id: wallet.id,
      address: wallet.address,
      chain: wallet.chain as Chain,
      label: wallet.label,
      kind: wallet.kind,
      exchange: wallet.exchange,
    },
    fileName: basename(path),
    tokenAddress: opts.tokenAddress,
    baseCurrency: ws.base_currency,
  };
  // A streamed format is parsed as the batches are written (docs/import.md "Large files"); any other whole.
  const batches = importer.stream ? importer.stream(csvRows(file.pieces), ctx) : [importer.parse([...file.pieces].join(''), ctx)];
  const source = { file_name: basename(path), sha256: file.sha256 };
  const run = { walletId: opts.walletId, dryRun: opts.dryRun, format: importer.format, source, onInserted: opts.onInserted };
  const streamed = importer.stream ? { cacheKiB: STREAMED_CACHE_KIB, expectedRows: file.lines } : {};
  return runBatches(engine, ws, batches, run, { onSkipped: opts.onSkipped, ...streamed });
}

/**
 * SQLite's page cache during a streamed import (KiB): with it, the batch's records and Node's own
 * ~60 MB, a 200 MB file imports in under 250 MB (docs/import.md "Large files"); pages beyond it
 * are spilled to the WAL inside the transaction.
 */
const STREAMED_CACHE_KIB = 16 * 1024;

/** Characters of a file's start that format detection gets at least (a header below Coinbase's preamble included). */
const HEAD_CHARS = 64 * 1024;

/**
 * An import file's text in pieces, its start for format detection and the SHA-256 of its bytes,
 * which every row's `transaction.created` names, so it is known before the first row is written:
 * a regular file is read once for it (and refused then, before anything is written, when it is
 * too large, binary or has an overlong line), then read again as it is parsed; a pipe is read
 * once, whole.
 */
function fileText(path: string, content: ImportOptions['content']): { head: string; pieces: Iterable<string>; sha256: string; lines: number } {
  if (content) return { head: content.text, pieces: [content.text], sha256: content.sha256, lines: linesOf(content.text) };
  const hash = createHash('sha256');
  if (!isRegularFile(path)) {
    const text = readImportFile(path, undefined, (bytes) => hash.update(bytes));
    return { head: text, pieces: [text], sha256: hash.digest('hex'), lines: linesOf(text) };
  }
  let lines = 0;
  for (const piece of readImportPieces(path, undefined, (bytes) => hash.update(bytes))) lines += linesOf(piece);
  const sha256 = hash.digest('hex');
  const it = readImportPieces(path);
  const head: string[] = [];
  // At least HEAD_CHARS and the whole first line (NDJSON is told by its first line, parsed).
  for (let size = 0, newline = false; size < HEAD_CHARS || !newline; ) {
    const next = it.next();
    if (next.done) break;
    head.push(next.value);
    size += next.value.length;
    newline ||= next.value.includes('\n');
  }
  const pieces = {
    *[Symbol.iterator]() {
      yield* head;
      for (let next = it.next(); !next.done; next = it.next()) yield next.value;
    },
  };
  return { head: head.join(''), pieces, sha256, lines };
}

function linesOf(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface RunOptions {
  walletId?: string;
  dryRun?: boolean;
  format: string;
  source?: FileSource | SyncSource;
  /** false: no `last_synced` and `wallet.synced` (a wallet sync writes batches and tells once, at its end). */
  walletSynced?: boolean;
  onInserted?: ImportOptions['onInserted'];
}

export function importRecords(engine: Engine, workspaceId: string, records: ImportRecord[], opts: RunOptions): ImportSummary {
  return runBatches(engine, engine.workspace(workspaceId), [{ format: opts.format, records, errors: [], skipped: [] }], opts);
}

/**
 * The bad rows of an import, for its IMPORT_FAILED error: all counted, the first LISTED_ERRORS by
 * line kept (a file with a systematic mistake has as many as rows).
 */
class RowErrors {
  private kept: RowError[] = [];
  private readonly lines = new Set<number>();
  count = 0;

  add(e: RowError): void {
    this.count++;
    this.lines.add(e.line);
    this.kept.push(e);
    if (this.kept.length >= LISTED_ERRORS * 10) this.kept = sortedErrors(this.kept).slice(0, LISTED_ERRORS);
  }

  error(): TxaError {
    const n = this.lines.size;
    return new TxaError('IMPORT_FAILED', `${n} ${n === 1 ? 'row is' : 'rows are'} invalid; nothing was imported`, {
      extra: { errors: sortedErrors(this.kept).slice(0, LISTED_ERRORS), error_count: this.count },
    });
  }
}

/** By line, a line's errors in the order found (the sort is stable). */
const sortedErrors = (errors: RowError[]): RowError[] => [...errors].sort((a, b) => a.line - b.line);

/**
 * Writes the batches of a parse (one, or a streamed file's many) in ONE database transaction:
 * each batch's rows are checked, written and settled before the next batch is read, so memory
 * holds one batch; identities count over the whole file. After the first bad row nothing more is
 * written, but every row is still checked, and the transaction is rolled back at the end.
 */
function runBatches(
  engine: Engine,
  ws: Workspace,
  batches: Iterable<ParseResult>,
  opts: RunOptions,
  how: { onSkipped?: ImportOptions['onSkipped']; cacheKiB?: number; expectedRows?: number } = {},
): ImportSummary {
  const chosen = opts.walletId ? requireWallet(engine, ws.id, opts.walletId) : undefined;
  try {
    return engine.write(() => {
      const errors = new RowErrors();
      const counters = new Occurrences();
      const total = emptyTotals();
      // A streamed file at least as long as the ledger (in lines) builds the filled tables'
      // indexes once, after its last batch, and then matches its rows (bulkSettle).
      const lastBefore = maxTransactionRowid(engine.db);
      const bulk = how.expectedRows !== undefined && how.expectedRows >= Math.max(MIN_REBUILD_ROWS, lastBefore);
      const eachBatch = () => {
        for (const batch of batches) {
          for (const s of batch.skipped) how.onSkipped?.(s);
          total.skipped += batch.skipped.length;
          for (const e of batch.errors) errors.add(e);
          const { records } = batch;
          if (!chosen && records.some((r) => !r.wallet)) {
            throw new TxaError('USAGE_ERROR', 'the file does not name the wallet of every row: pass --wallet ID', {
              field: 'wallet',
              hint: 'List wallets with: txa wallet list',
            });
          }
          const bad = (e: RowError) => errors.add(e);
          convertFiat(engine, ws, records, bad);
          const wallets = resolveWallets(engine, ws.id, records, chosen, bad);
          for (const w of wallets) if (w && !total.touched.has(w.id)) total.touched.set(w.id, { wallet: w, imported: 0 });
          const rows = buildRows(ws.id, records, wallets, counters, bad);
          // After a bad row the rest is only checked: the transaction is rolled back.
          if (errors.count > 0) continue;
          writeBatch(engine, ws, rows, opts, total, bulk);
        }
      };
      withLargeCache(engine.db, () => (bulk ? withIndexesRebuilt(engine.db, FILLED_TABLES, eachBatch) : eachBatch()), how.cacheKiB);
      if (errors.count > 0) throw errors.error();
      if (bulk) bulkSettle(engine, ws.id, opts, total, lastBefore);
      const summary = finish(engine, ws, opts, total);
      if (opts.dryRun) throw new DryRunDone(summary);
      return summary;
    });
  } catch (err) {
    if (err instanceof DryRunDone) return err.summary;
    throw err;
  }
}

/**
 * A bulk import's matching, once its indexes are back: its own rows read back from the store
 * (those after the ledger's last rowid before it), BATCH_ROWS at a time, matched as own transfers
 * and handed to `onInserted`, as writeBatch does for each batch otherwise.
 */
function bulkSettle(engine: Engine, ws: string, opts: RunOptions, total: Totals, lastBefore: number): void {
  // With one exchange account, matching passes over an exchange row without a network hash
  // (transfers.ts autoMatch: no other wallet on its chain nor at its empty addresses, no hash to
  // pair by): unless `onInserted` wants every id, those are sifted out, not read back (an exchange
  // file's rows all are; reading them was 5 % of its import), each batch ending where it would.
  const sift = !opts.onInserted && walletCountOn(engine.db, ws, EXCHANGE_CHAIN) <= 1;
  for (let after = lastBefore, end = batchEndAfterRowid(engine.db, ws, after, BATCH_ROWS); end !== null; ) {
    const rows = selectMatchRowsThrough(engine.db, ws, after, end, sift);
    if (rows.length > 0) total.transfers_matched += autoMatch(engine, ws, rows);
    opts.onInserted?.(rows.map((r) => r.id));
    after = end;
    end = batchEndAfterRowid(engine.db, ws, after, BATCH_ROWS);
  }
}

/** What the batches add up to. */
interface Totals {
  imported: number;
  duplicates: number;
  skipped: number;
  spam: number;
  revalued: number;
  transfers_matched: number;
  touched: Map<string, { wallet: WalletRow; imported: number }>;
}

const emptyTotals = (): Totals => ({
  imported: 0,
  duplicates: 0,
  skipped: 0,
  spam: 0,
  revalued: 0,
  transfers_matched: 0,
  touched: new Map(),
});

/**
 * One batch's good rows: refused whole when any is dated in a closed period, spam settled,
 * inserted with their events and tag links, then fee values revalued and own transfers matched.
 * A batch at least as large as the ledger (a first import of one batch) builds the filled tables'
 * indexes once at its end.
 */
function writeBatch(engine: Engine, ws: Workspace, rows: PlannedRow[], opts: RunOptions, total: Totals, bulk: boolean): void {
  refuseClosedRows(engine, ws.id, rows);
  settleIncomingSpam(engine, ws.id, rows);
  const writeRows = () => write(engine, ws, rows, opts);
  const writeAll = () => {
    if (linkCount(rows) < MIN_DEFERRED_LINKS) return writeRows();
    for (const r of rows) r.tag_count = tagsOf(r);
    return withLinkTriggersDeferred(engine.db, writeRows);
  };
  // Revaluing and matching look rows up by their indexes: after those are back.
  const inserted = !bulk && rebuildPays(engine, rows) ? withIndexesRebuilt(engine.db, FILLED_TABLES, writeAll) : writeAll();
  total.imported += inserted.length;
  total.duplicates += rows.length - inserted.length;
  for (const row of inserted) {
    total.touched.get(row.wallet_id)!.imported++;
    if (row.spam) total.spam++;
  }
  const ids = new Set(inserted.map((r) => r.id));
  // By primary key, which stays while a bulk import's other indexes are dropped.
  total.revalued += revalueFees(engine, ws.id, rows, ids, sourceOfImport(opts));
  if (bulk) return;
  total.transfers_matched += autoMatch(engine, ws.id, inserted);
  opts.onInserted?.([...ids]);
}

/**
 * An import (or a sync's batch) that brings rows dated in a closed period is refused whole, saying
 * how many (docs/periods.md): rows stored already are no write and pass. Before any write, so
 * nothing is; the database's guard would refuse the first such row anyway, without the count.
 * Nothing closed costs one small query.
 */
function refuseClosedRows(engine: Engine, workspaceId: string, rows: PlannedRow[]): void {
  const closed = closedThrough(engine, workspaceId);
  if (!closed) return;
  const early = rows.filter((r) => r.ts < closed.endTs);
  if (early.length === 0) return;
  const fresh = newRowIds(
    engine.db,
    early.map((r) => r.id),
  );
  assertRowsOpen(
    engine,
    workspaceId,
    early.filter((r) => fresh.has(r.id)),
    'imported',
  );
}

/**
 * Values an exchange file states in another currency than the workspace's, converted with the
 * ledger's rates (`txa rates`, units of the currency per unit of the base): value / rate, exact,
 * rounded to cents where it is stored. A day without a rate is a bad row naming the day and the
 * currency, never a silent 1.0 (docs/import.md "Exchange files").
 */
function convertFiat(engine: Engine, ws: Workspace, records: ImportRecord[], bad: (e: RowError) => void): void {
  let rate: ReturnType<typeof rateReader> | undefined;
  for (const r of records) {
    const currency = r.fiat_currency;
    if (currency === undefined || r.fiat_value === null || currency === ws.base_currency.toUpperCase()) continue;
    rate ??= rateReader(engine.db, ws.id);
    const day = dayOf(r.timestamp);
    const found = rate(currency, day);
    if (found === undefined) {
      bad({
        line: r.line,
        field: 'fiat_currency',
        reason: `no ${currency} rate on ${day} to convert the value to ${ws.base_currency}; fetch it (txa rates fill --currency ${currency}) or add it (txa rates import FILE) and import again`,
      });
      continue;
    }
    r.fiat_value = new Big(r.fiat_value).div(found).toFixed();
  }
}

/**
 * The wallet of each record: `--wallet` for all; else the row's wallet_id (created when unknown,
 * from wallet_label, chain and the row's own address), or its label (CSV export). One lookup per
 * distinct wallet, not per row.
 */
function resolveWallets(
  engine: Engine,
  workspaceId: string,
  records: ImportRecord[],
  chosen: WalletRow | undefined,
  bad: (e: RowError) => void,
): (WalletRow | undefined)[] {
  const byRef = new Map<string, WalletRow | string>();
  const lookup = (ref: WalletRef): WalletRow | string => {
    const key = ref.id ? `id\0${ref.id}` : `label\0${ref.label}\0${ref.chain}`;
    let found = byRef.get(key);
    if (found === undefined) {
      found = ref.id ? walletById(engine, workspaceId, ref) : walletByLabel(engine, workspaceId, ref);
      byRef.set(key, found);
    }
    return found;
  };
  return records.map((r) => {
    const w = chosen ?? lookup(r.wallet!);
    if (typeof w === 'string') {
      bad({ line: r.line, field: r.wallet?.id ? 'wallet_id' : 'wallet_label', reason: w });
      return undefined;
    }
    if (r.wallet?.chain && r.wallet.chain !== w.chain) {
      bad({ line: r.line, field: 'chain', reason: `the row is on ${r.wallet.chain} but wallet ${w.id} is on ${w.chain}` });
      return undefined;
    }
    return w;
  });
}

/** A wallet by id, or a new one (same id when free) for a native-JSON row naming an unknown wallet. */
function walletById(engine: Engine, workspaceId: string, ref: WalletRef): WalletRow | string {
  const existing = getWallet(engine.db, workspaceId, ref.id!);
  if (existing) return existing;
  if (!ref.chain) return `unknown wallet ${ref.id}; the row needs a chain to create it`;
  if (!ref.address || !isAddress(ref.address))
    return `unknown wallet ${ref.id}; the row's own address '${ref.address ?? ''}' is not a wallet address to create it with`;
  const sameAddress = findWalletByAddress(engine.db, workspaceId, ref.chain, ref.address.toLowerCase());
  if (sameAddress) return sameAddress;
  return insertNewWallet(engine, workspaceId, {
    id: walletIdTaken(engine.db, ref.id!) ? newId('wal') : ref.id,
    address: ref.address,
    chain: ref.chain,
    label: ref.label,
  });
}

function walletByLabel(engine: Engine, workspaceId: string, ref: WalletRef): WalletRow | string {
  const found = walletsLabelled(engine.db, workspaceId, ref.label!, ref.chain ?? null);
  if (found.length === 1) return found[0]!;
  const where = ref.chain ? ` on ${ref.chain}` : '';
  return found.length === 0
    ? `no wallet labelled '${ref.label}'${where} in this workspace; add it or pass --wallet ID`
    : `${found.length} wallets are labelled '${ref.label}'${where}; pass --wallet ID`;
}

/** A row to insert, with its wallet's label (for its event) and the tags the file gives it. */
interface PlannedRow extends TransactionRow {
  method: string | null;
  block: number | null;
  block_position: number | null;
  tags: NonNullable<ImportRecord['tags']>;
  /** How many tags it links, set when its links are written with the triggers deferred (store/bulk-links.ts). */
  tag_count?: number;
  /** Why its content says it is spam; settleIncomingSpam sets `spam` from it. */
  spam_reason?: SpamReason;
}

/**
 * Rows to insert, with identities derived the same way for every format: the transfer key
 * `t|i|fee:<token address or symbol>:<direction>:<n>` (i: value moved by an internal call), n
 * counting earlier records of the file with the same wallet, hash and prefix. The id follows from (wallet, hash, transfer key), so the
 * primary key alone makes re-imports find their rows (an `id` in the file is not kept).
 */
function buildRows(
  workspaceId: string,
  records: ImportRecord[],
  wallets: (WalletRow | undefined)[],
  counters: Occurrences,
  bad: (e: RowError) => void,
): PlannedRow[] {
  const planned: PlannedRow[] = [];
  records.forEach((r, i) => {
    const w = wallets[i];
    if (!w) return;
    if (normalizeDecimal(r.amount) !== r.amount || r.amount.startsWith('-') || scaleOf(r.amount) > r.token.decimals) {
      bad({ line: r.line, field: 'amount', reason: `'${r.amount}' is not a non-negative decimal with at most ${r.token.decimals} decimals` });
      return;
    }
    if (integerDigits(r.amount) > MAX_AMOUNT_DIGITS) {
      bad({ line: r.line, field: 'amount', reason: `'${r.amount}' has more than ${MAX_AMOUNT_DIGITS} integer digits` });
      return;
    }
    let fiat_cents: number | null = null;
    try {
      fiat_cents = r.fiat_value === null ? null : decimalToCents(r.fiat_value);
    } catch {
      bad({ line: r.line, field: 'fiat_value', reason: `'${r.fiat_value}' is too large` });
      return;
    }
    if (r.fiat_value !== null && fiat_cents === null) {
      bad({ line: r.line, field: 'fiat_value', reason: `not a number: '${r.fiat_value}'` });
      return;
    }
    const prefix = `${r.type === 'fee' ? 'fee' : r.internal ? 'i' : 't'}:${r.token.address ?? r.token.symbol}:${r.direction}`;
    const n = counters.next(`${w.id}\0${r.tx_hash}\0${prefix}`);
    const transfer_key = `${prefix}:${n}`;
    planned.push({
      id: transactionId(w.id, r.tx_hash, transfer_key),
      workspace_id: workspaceId,
      wallet_id: w.id,
      wallet_label: w.label,
      chain: w.chain,
      tx_hash: r.tx_hash,
      transfer_key,
      from_address: r.from_address,
      to_address: r.to_address,
      token_symbol: r.token.symbol,
      token_address: r.token.address,
      token_decimals: r.token.decimals,
      amount: r.amount,
      amount_key: amountKey(r.amount),
      fiat_cents,
      fiat_value_source: sourceOf({ fiat_cents }),
      spam: 0,
      spam_reason: r.spam,
      ...NO_TRANSFER,
      direction: r.direction,
      type: r.type,
      ts: r.timestamp,
      notes: r.notes,
      method: r.method || null,
      block: r.block ?? null,
      block_position: r.block_position ?? null,
      tags: r.tags ?? [],
    });
  });
  return planned;
}

/** Tables an import fills, whose secondary indexes a large import builds anew (rebuildPays). */
const FILLED_TABLES = ['transactions', 'transaction_tags', 'events'];
/** Below this many rows, inserting into the indexes costs too little to be worth the DDL. */
const MIN_REBUILD_ROWS = 10_000;

/**
 * From this many tag links on, an import does the link triggers' work once at its end
 * (store/bulk-links.ts): below it, the DDL and the set-based catch-up cost about what the
 * triggers do.
 */
const MIN_DEFERRED_LINKS = 1_000;

/** The tag links the rows name (an upper bound: duplicates and repeated names link once). */
const linkCount = (rows: PlannedRow[]): number => rows.reduce((n, r) => n + r.tags.length, 0);

/** The tags a row links: names of one key are one tag (resolveTags), and each tag links once. */
const tagsOf = (row: PlannedRow): number => (row.tags.length < 2 ? row.tags.length : new Set(row.tags.map((t) => tagNameKey(t.name))).size);

/**
 * Whether the import adds at least as many transactions as the ledger holds: then building the
 * indexes of the filled tables once, sorted, is faster than inserting into them row by row; with
 * fewer it is slower (bench/RESULTS.md, "Session 2"). The ledger's size is max(rowid), an upper
 * bound of its row count.
 */
function rebuildPays(engine: Engine, rows: PlannedRow[]): boolean {
  if (rows.length < MIN_REBUILD_ROWS) return false;
  const stored = maxTransactionRowid(engine.db);
  if (rows.length < stored) return false;
  // Rows already stored are skipped: count the new ones until the answer is known.
  let fresh = 0;
  for (const [i, r] of rows.entries()) {
    if (fresh >= stored) return true;
    if (fresh + rows.length - i < stored) return false;
    if (!transactionExists(engine.db, r.id)) fresh++;
  }
  return fresh >= stored;
}

/** Inserts a batch's rows (those not stored yet) with their spam reasons, tags, tag links and `transaction.created` events; returns them. */
function write(engine: Engine, ws: Workspace, planned: PlannedRow[], opts: RunOptions): PlannedRow[] {
  const inserted = insertTransactions(engine.db, planned, nowSeconds());
  recordSpamReasons(engine, ws.id, inserted);
  const source = sourceOfImport(opts);
  const tagRefs = resolveTags(engine, ws.id, inserted);
  // Row by row (events written 50 at a time), so little built for a row (its tags, its ~1 KB event) outlives it.
  const created = opts.dryRun ? undefined : engine.changes(ws.id, 'transaction.created');
  // The body `{ source, transaction }` as JSON, its part before the transaction made once.
  const head = source ? `{"source":${JSON.stringify(source)},"transaction":` : '{"transaction":';
  for (const row of inserted) {
    const tags = row.tags.length === 0 ? [] : linkTags(engine, row, tagRefs);
    created?.addJson(row.id, `${head}${JSON.stringify(toTransaction(row, tags, []))}}`);
  }
  created?.end();
  return inserted;
}

/** After the last batch: each wallet the rows belong to is synced (`last_synced`, one `wallet.synced`); the summary. */
function finish(engine: Engine, ws: Workspace, opts: RunOptions, total: Totals): ImportSummary {
  if (!opts.dryRun && opts.walletSynced !== false) {
    const syncedAt = nowIso();
    for (const t of total.touched.values()) {
      setWalletSynced(engine.db, t.wallet.id, syncedAt);
      const wallet = publicWallet({ ...t.wallet, last_synced: syncedAt });
      engine.change(ws.id, 'wallet.synced', t.wallet.id, { wallet, imported: t.imported });
    }
  }
  return {
    format: opts.format,
    imported: total.imported,
    duplicates: total.duplicates,
    skipped: total.skipped,
    dry_run: Boolean(opts.dryRun),
    spam: total.spam,
    wallets: [...total.touched.values()].map((t) => ({ id: t.wallet.id, label: t.wallet.label, imported: t.imported })),
    revalued: total.revalued,
    transfers_matched: total.transfers_matched,
  };
}

const sourceOfImport = (opts: RunOptions): ImportSource | undefined => opts.source && { ...opts.source, format: opts.format };

/**
 * Fee rows the file holds that are stored already, with a value of the import's own (source
 * `import`, or none): where the file values the fee differently, e.g. at its day's price where an
 * older txa took the explorer's fee at today's price (docs/import.md), the stored value is
 * replaced, with a `transaction.updated` carrying old and new. Manual and price-filled values stay.
 */
function revalueFees(engine: Engine, ws: string, planned: PlannedRow[], inserted: Set<string>, source: ImportSource | undefined): number {
  let revalued = 0;
  for (const p of planned) {
    if (p.type !== 'fee' || inserted.has(p.id)) continue;
    const row = selectById(engine.db, ws, p.id);
    if (!row || row.fiat_cents === p.fiat_cents || (row.fiat_value_source !== null && row.fiat_value_source !== 'import')) continue;
    changing(
      engine,
      ws,
      [p.id],
      () => updateValue(engine.db, row, { fiat_cents: p.fiat_cents, fiat_value_source: sourceOf(p), spam: row.spam }),
      source && { source },
    );
    revalued++;
  }
  return revalued;
}

/**
 * The tags the inserted rows name, by the name as written, creating missing ones (with the row's
 * type or `neutral`) through createTag, so the tier's tag limit and `tag.created` apply as
 * everywhere. Done before any `transaction.created`, so the log tells of a tag before the rows
 * that carry it.
 */
function resolveTags(engine: Engine, workspaceId: string, rows: PlannedRow[]): Map<string, TagRef> {
  const byKey = new Map<string, TagRef>();
  const byName = new Map<string, TagRef>();
  for (const row of rows) {
    for (const t of row.tags) {
      if (byName.has(t.name)) continue;
      const key = tagNameKey(t.name);
      let ref = byKey.get(key) ?? tagRefByNameKey(engine.db, workspaceId, key);
      if (!ref) {
        const tag = createTag(engine, workspaceId, { name: t.name, type: t.type ?? 'neutral', color: t.color });
        ref = { id: tag.id, name: tag.name, color: tag.color };
      }
      byKey.set(key, ref);
      byName.set(t.name, ref);
    }
  }
  return byName;
}

/** Links a row to its tags; returns them as the API shows them (distinct, in tag order). */
function linkTags(engine: Engine, row: PlannedRow, refs: Map<string, TagRef>): TagRef[] {
  const linked = new Map<string, TagRef>();
  for (const t of row.tags) {
    const ref = refs.get(t.name)!;
    if (!linked.has(ref.id)) linkTag(engine.db, row.id, ref.id);
    linked.set(ref.id, ref);
  }
  return [...linked.values()].sort(compareTagRefs);
}
