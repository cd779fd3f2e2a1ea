/** SQL over the transactions table: filtered pages, counts and streaming reads (inserts: insert-transactions.ts). */
import type Database from 'better-sqlite3';
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { TxFilter } from '../core/filters.js';
import type { Attachment, Direction, FiatValueSource, Sort, TagRef, Transaction, TransferKind, TransferMatchedBy, TxType } from '../core/types.js';
import { centsToNumber } from '../core/money.js';
import { isoSeconds } from '../core/clock.js';
import { EXCHANGE_CHAIN, explorerUrl, publicChain } from '../core/chains.js';

export interface TransactionRow {
  id: string;
  workspace_id: string;
  wallet_id: string;
  wallet_label: string;
  chain: string;
  tx_hash: string;
  transfer_key: string;
  from_address: string;
  to_address: string;
  token_symbol: string;
  token_address: string | null;
  token_decimals: number;
  amount: string;
  amount_key: string;
  fiat_cents: number | null;
  direction: string;
  type: string;
  ts: number;
  notes: string | null;
  fiat_value_source: FiatValueSource | null;
  /** 0 or 1. */
  spam: number;
  transfer_id: string | null;
  transfer_kind: TransferKind | null;
  transfer_matched_by: TransferMatchedBy | null;
  /** The other leg of the transfer; null for a one-leg transfer or none. */
  transfer_counterpart: string | null;
}

/** A row to insert: no transfer yet; the value's source defaults to `import` (or none without a value), spam to 0. */
export type NewTransaction = Omit<TransactionRow, 'wallet_label' | 'fiat_value_source' | 'spam' | keyof typeof NO_TRANSFER> &
  Partial<Pick<TransactionRow, 'fiat_value_source' | 'spam'>> & {
    /** The explorer's method name for the row's transaction; stored for rules only, not in the API's Transaction. */
    method?: string | null;
    /** Its tag links, when the caller links it with the link triggers deferred (store/bulk-links.ts); else 0 and the triggers count. */
    tag_count?: number;
    /** Block number and the transaction's index in it, where the source gives them (the ledger's order of one second). */
    block?: number | null;
    block_position?: number | null;
  };

/** The columns of a row with no transfer, for rows built before they are stored (an import's events). */
export const NO_TRANSFER = { transfer_id: null, transfer_kind: null, transfer_matched_by: null, transfer_counterpart: null } as const;

/** A value from the ledger has the source `import` unless one is given; no value has none. */
export const sourceOf = (r: Pick<NewTransaction, 'fiat_cents' | 'fiat_value_source'>): FiatValueSource | null =>
  r.fiat_cents === null ? null : (r.fiat_value_source ?? 'import');

const SELECT = `SELECT t.id, t.workspace_id, t.wallet_id, w.label AS wallet_label, t.chain, t.tx_hash, t.transfer_key,
  t.from_address, t.to_address, t.token_symbol, t.token_address, t.token_decimals, t.amount, t.amount_key,
  t.fiat_cents, t.direction, t.type, t.ts, t.notes, t.fiat_value_source, t.spam, t.transfer_id, tr.kind AS transfer_kind,
  tr.matched_by AS transfer_matched_by,
  iif(t.transfer_id IS NULL, NULL, (SELECT c.id FROM transactions c WHERE c.transfer_id = t.transfer_id AND c.id <> t.id)) AS transfer_counterpart
  FROM transactions t JOIN wallets w ON w.id = t.wallet_id LEFT JOIN transfers tr ON tr.id = t.transfer_id`;

const ORDER: Record<Sort, string> = {
  timestamp_desc: 't.ts DESC, t.id DESC',
  timestamp_asc: 't.ts ASC, t.id ASC',
  amount_desc: 't.amount_key DESC, t.ts DESC, t.id DESC',
  amount_asc: 't.amount_key ASC, t.ts ASC, t.id ASC',
};

export interface Where {
  sql: string;
  params: unknown[];
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Collects AND-ed clauses; every value is a bound parameter. */
export class WhereBuilder {
  private readonly clauses: string[] = [];
  private readonly params: unknown[] = [];

  add(clause: string, ...params: unknown[]): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  build(): Where {
    return { sql: this.clauses.join(' AND '), params: this.params };
  }
}

/**
 * The clauses on workspace, wallet, chain, token and direction: columns that both the
 * transactions table (alias `t.`) and the rollups (no alias) carry under the same names.
 */
export function dimensionClauses(workspaceId: string, f: TxFilter, alias = ''): WhereBuilder {
  const w = new WhereBuilder().add(`${alias}workspace_id = ?`, workspaceId);
  if (f.walletIds) w.add(`${alias}wallet_id IN (${placeholders(f.walletIds.length)})`, ...f.walletIds);
  if (f.chain) w.add(`${alias}chain = ?`, f.chain);
  if (f.token) w.add(`${alias}token_symbol = ? COLLATE NOCASE`, f.token);
  if (f.direction) w.add(`${alias}direction = ?`, f.direction);
  return w;
}

/**
 * How a tag filter finds its rows: walking the rows (in the order of an index) and probing each
 * one's links, or driving from the tags' links (transaction_tags_by_tag) and looking each row up
 * by id. Walking is best when the tags are common and few rows are needed in order (a page);
 * driving when they are rare or every match is read (a sum). See store/tag-pages.ts.
 */
export type TagAccess = 'walk' | 'drive';

/**
 * WHERE clause of a filter on the transactions table, alias `t`. `time: 'scan'` leaves the
 * period's bounds out of the index: a reader of key ranges (key-ranges.ts) must seek each range by
 * its (ts, id) bounds, and SQLite would otherwise seek every range from the period's start (an
 * export of a 1M-row quarter read 1M × ranges index entries: minutes instead of seconds).
 */
export function whereOf(workspaceId: string, f: TxFilter, tags: TagAccess = 'walk', time: 'index' | 'scan' = 'index'): Where {
  const drive = f.tagIds !== undefined && tags === 'drive';
  // Unary `+` makes a column unusable for an index: every index of the table starts with
  // workspace_id, so the planner has to start from the links.
  const w = dimensionClauses(workspaceId, f, drive ? '+t.' : 't.');
  const ts = time === 'scan' ? '+t.ts' : 't.ts';
  if (f.startTs !== undefined) w.add(`${ts} >= ?`, f.startTs);
  if (f.endTs !== undefined) w.add(`${ts} < ?`, f.endTs);
  if (f.minAmountKey !== undefined) w.add('t.amount_key >= ?', f.minAmountKey);
  if (f.maxAmountKey !== undefined) w.add('t.amount_key <= ?', f.maxAmountKey);
  if (f.tagIds) {
    const marks = placeholders(f.tagIds.length);
    w.add(
      drive
        ? `t.id IN (SELECT x.transaction_id FROM transaction_tags x WHERE x.tag_id IN (${marks}))`
        : `EXISTS (SELECT 1 FROM transaction_tags x WHERE x.transaction_id = t.id AND x.tag_id IN (${marks}))`,
      ...f.tagIds,
    );
  }
  if (f.hasTags !== undefined) w.add(f.hasTags ? 't.tag_count > 0' : 't.tag_count = 0');
  if (f.hasNotes !== undefined) w.add(f.hasNotes ? 't.notes IS NOT NULL' : 't.notes IS NULL');
  if (f.internal !== undefined) w.add(f.internal ? 't.transfer_id IS NOT NULL' : 't.transfer_id IS NULL');
  const spam = f.spam ?? 'exclude';
  if (spam !== 'include') w.add(spam === 'only' ? 't.spam = 1' : 't.spam = 0');
  return w.build();
}

/**
 * The filter as SQL should read it: a workspace without a spam row needs no spam clause, which
 * would cost the index-only scans (amount ranges, key ranges) a visit of every row (4× on an
 * amount-range summary of the 1M-row ledger). One lookup in the spam index; call it in the read
 * transaction that uses the filter.
 */
export function withSpamResolved(db: Db, workspaceId: string, f: TxFilter): TxFilter {
  if (f.spam === 'include' || f.spam === 'only') return f;
  const any = prepareCached(db, 'SELECT 1 FROM transactions WHERE workspace_id = ? AND spam = 1 LIMIT 1').get(workspaceId);
  return any ? f : { ...f, spam: 'include' };
}

export function countTransactions(db: Db, workspaceId: string, f: TxFilter): number {
  const w = whereOf(workspaceId, f);
  return (prepareCached(db, `SELECT count(*) AS n FROM transactions t WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
}

export function selectPage(db: Db, workspaceId: string, f: TxFilter, sort: Sort, limit: number, offset: number, tags: TagAccess = 'walk'): TransactionRow[] {
  const w = whereOf(workspaceId, f, tags);
  return prepareCached(db, `${SELECT} WHERE ${w.sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`).all(...w.params, limit, offset) as TransactionRow[];
}

/**
 * Every matching row in order, read lazily: memory stays flat however many rows match. Rows come
 * raw (arrays) and are shaped here: better-sqlite3 builds row objects a third slower.
 */
export function* iterateRows(db: Db, workspaceId: string, f: TxFilter, sort: Sort): Generator<TransactionRow> {
  const w = whereOf(workspaceId, f);
  const stmt = db.prepare(`${SELECT} WHERE ${w.sql} ORDER BY ${ORDER[sort]}`).raw(true);
  for (const r of stmt.iterate(...w.params) as IterableIterator<unknown[]>) {
    yield {
      id: r[0] as string,
      workspace_id: r[1] as string,
      wallet_id: r[2] as string,
      wallet_label: r[3] as string,
      chain: r[4] as string,
      tx_hash: r[5] as string,
      transfer_key: r[6] as string,
      from_address: r[7] as string,
      to_address: r[8] as string,
      token_symbol: r[9] as string,
      token_address: r[10] as string | null,
      token_decimals: r[11] as number,
      amount: r[12] as string,
      amount_key: r[13] as string,
      fiat_cents: r[14] as number | null,
      direction: r[15] as string,
      type: r[16] as string,
      ts: r[17] as number,
      notes: r[18] as string | null,
      fiat_value_source: r[19] as FiatValueSource | null,
      spam: r[20] as number,
      transfer_id: r[21] as string | null,
      transfer_kind: r[22] as TransferKind | null,
      transfer_matched_by: r[23] as TransferMatchedBy | null,
      transfer_counterpart: r[24] as string | null,
    };
  }
}

export function selectById(db: Db, workspaceId: string, id: string): TransactionRow | undefined {
  return prepareCached(db, `${SELECT} WHERE t.id = ? AND t.workspace_id = ?`).get(id, workspaceId) as TransactionRow | undefined;
}

/** The rows of `ids` that exist in the workspace, in the order of `ids`; a query per 500 (`+`: by the id key, never a workspace scan). */
export function selectByIds(db: Db, workspaceId: string, ids: string[]): TransactionRow[] {
  const found = inChunks(
    ids,
    500,
    (chunk) =>
      preparedIn(db, (marks) => `${SELECT} WHERE t.id IN (${marks}) AND +t.workspace_id = ?`, chunk.length).all(...chunk, workspaceId) as TransactionRow[],
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The row `id` when the filter selects it. */
export function selectMatching(db: Db, workspaceId: string, f: TxFilter, id: string): TransactionRow | undefined {
  const w = whereOf(workspaceId, f);
  return prepareCached(db, `${SELECT} WHERE ${w.sql} AND t.id = ?`).get(...w.params, id) as TransactionRow | undefined;
}

/** Whether a transaction of this id is stored (in any workspace: ids are derived from the chain's data). */
export function transactionExists(db: Db, id: string): boolean {
  return prepareCached(db, 'SELECT 1 FROM transactions WHERE id = ?').pluck().get(id) !== undefined;
}

/** What own-transfer matching reads of a new row (engine/transfers.ts autoMatch). */
export type MatchRow = Pick<NewTransaction, 'id' | 'wallet_id' | 'chain' | 'tx_hash' | 'from_address' | 'to_address' | 'amount' | 'direction' | 'type' | 'ts'>;

/** The rowid that ends a batch of up to `limit` rows written after rowid `after` (rowid order), or null when there is none. */
export function batchEndAfterRowid(db: Db, workspaceId: string, after: number, limit: number): number | null {
  return prepareCached(db, 'SELECT max(rowid) FROM (SELECT rowid FROM transactions WHERE rowid > ? AND +workspace_id = ? ORDER BY rowid LIMIT ?)')
    .pluck()
    .get(after, workspaceId, limit) as number | null;
}

/**
 * Whether `column` may hold a network hash (accounting/transfers.ts NETWORK_HASH, which callers
 * test on what this lets through): `0x` + 64 characters, or 64 (a Bitcoin txid). SQL text.
 */
export const mayBeNetworkHash = (column: string) => `(length(${column}) = 64 OR (length(${column}) = 66 AND ${column} LIKE '0x%'))`;

/**
 * The rows written after rowid `after` through `end`, in rowid order, as matching reads them: an
 * import reads its own rows back after its indexes are rebuilt. Only those columns, from the table
 * alone: the full row (its wallet's label, its transfer) took 6 % of a bulk import's time
 * (bench/RESULTS.md "Session 13: exchange file import"). With `sift`, less the exchange rows whose
 * hash is no network hash (mayBeNetworkHash): with one exchange account in the workspace, matching
 * passes those over (engine/imports.ts bulkSettle), and a bulk import of an exchange file is all
 * such rows.
 */
export function selectMatchRowsThrough(db: Db, workspaceId: string, after: number, end: number, sift: boolean): MatchRow[] {
  return prepareCached(
    db,
    `SELECT id, wallet_id, chain, tx_hash, from_address, to_address, amount, direction, type, ts
     FROM transactions WHERE rowid > ? AND rowid <= ? AND +workspace_id = ?
     AND NOT (? AND chain = '${EXCHANGE_CHAIN}' AND NOT ${mayBeNetworkHash('tx_hash')}) ORDER BY rowid`,
  ).all(after, end, workspaceId, sift ? 1 : 0) as MatchRow[];
}

/** The largest rowid of transactions (0 in an empty ledger): an upper bound of the row count, read without a scan. */

export function maxTransactionRowid(db: Db): number {
  return (prepareCached(db, 'SELECT max(rowid) FROM transactions').pluck().get() as number | null) ?? 0;
}

export interface BalanceFlow {
  token_symbol: string;
  token_address: string | null;
  token_decimals: number;
  direction: string;
  amount: string;
  fiat_cents: number | null;
  ts: number;
}

/** The wallet's rows that are not spam, as its balances sum them (iterating: prepared fresh, see statements.ts). */
export function walletFlows(db: Db, walletId: string): IterableIterator<BalanceFlow> {
  return db
    .prepare('SELECT token_symbol, token_address, token_decimals, direction, amount, fiat_cents, ts FROM transactions WHERE wallet_id = ? AND spam = 0')
    .iterate(walletId) as IterableIterator<BalanceFlow>;
}

function inChunks<T>(ids: string[], size: number, fn: (chunk: string[]) => T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += size) out.push(...fn(ids.slice(i, i + size)));
  return out;
}

/** An `IN (?, …)` query for a list of `n` values, prepared once per length. */
function preparedIn(db: Db, sql: (marks: string) => string, n: number): Database.Statement {
  return prepareCached(db, sql(Array.from({ length: n }, () => '?').join(',')));
}

/** The order of a transaction's tags: by name, ASCII letters case-folded (as SQL's NOCASE), then id. */
export function compareTagRefs(a: TagRef, b: TagRef): number {
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const [x, y] = [fold(a.name), fold(b.name)];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Tags and attachments of many transactions, a few queries per 500 of them. */
export function loadRelations(db: Db, ids: string[], fileUrl: (attachmentId: string) => string) {
  const tags = new Map<string, TagRef[]>();
  const attachments = new Map<string, Attachment[]>();
  if (ids.length === 0) return { tags, attachments };
  // The links through the primary key alone, the few tags they name in one more query, the order in JS.
  const links = inChunks(
    ids,
    500,
    (chunk) =>
      preparedIn(db, (marks) => `SELECT transaction_id AS tx, tag_id AS tag FROM transaction_tags WHERE transaction_id IN (${marks})`, chunk.length).all(
        ...chunk,
      ) as { tx: string; tag: string }[],
  );
  const tagIds = [...new Set(links.map((l) => l.tag))];
  const refs = new Map(
    inChunks(
      tagIds,
      500,
      (chunk) => preparedIn(db, (marks) => `SELECT id, name, color FROM tags WHERE id IN (${marks})`, chunk.length).all(...chunk) as TagRef[],
    ).map((t) => [t.id, t]),
  );
  for (const l of links) {
    const list = tags.get(l.tx) ?? [];
    list.push(refs.get(l.tag)!);
    tags.set(l.tx, list);
  }
  for (const list of tags.values()) list.sort(compareTagRefs);
  const attRows = inChunks(
    ids,
    500,
    (chunk) =>
      preparedIn(
        db,
        (marks) => `SELECT transaction_id AS tx, id, file_name, file_size, uploaded_at FROM attachments
         WHERE transaction_id IN (${marks}) ORDER BY uploaded_at, rowid`,
        chunk.length,
      ).all(...chunk) as { tx: string; id: string; file_name: string; file_size: number; uploaded_at: string }[],
  );
  for (const r of attRows) {
    const list = attachments.get(r.tx) ?? [];
    list.push({ id: r.id, file_name: r.file_name, file_url: fileUrl(r.id), file_size: r.file_size, uploaded_at: r.uploaded_at });
    attachments.set(r.tx, list);
  }
  return { tags, attachments };
}

export function toTransaction(row: TransactionRow, tags: TagRef[], attachments: Attachment[]): Transaction {
  const chain = publicChain(row.chain);
  return {
    id: row.id,
    tx_hash: row.tx_hash,
    wallet_id: row.wallet_id,
    wallet_label: row.wallet_label,
    chain,
    from_address: row.from_address,
    to_address: row.to_address,
    token: { symbol: row.token_symbol, address: row.token_address, decimals: row.token_decimals },
    amount: row.amount,
    fiat_value: row.fiat_cents === null ? null : centsToNumber(row.fiat_cents),
    direction: row.direction as Direction,
    type: row.type as TxType,
    timestamp: isoSeconds(row.ts),
    tags,
    notes: row.notes,
    attachments,
    explorer_url: chain === null ? null : explorerUrl(chain, row.tx_hash),
    transfer:
      row.transfer_id === null
        ? null
        : { id: row.transfer_id, counterpart_id: row.transfer_counterpart, kind: row.transfer_kind!, matched_by: row.transfer_matched_by! },
    fiat_value_source: row.fiat_value_source,
    spam: row.spam === 1,
  };
}
