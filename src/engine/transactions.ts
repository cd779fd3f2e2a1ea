/**
 * Reading transactions: filtered pages with exact summaries, single reads, and streams for
 * exports. Changes (notes, tags, attachments) are in transaction-edits.ts, so the read path
 * does not load the request-body schemas.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { centsToNumber } from '../core/money.js';
import { parseTxQuery, type TxFilter } from '../core/filters.js';
import { paginationOf } from '../core/pagination.js';
import { batches } from '../core/batches.js';
import type { QueryParams, Sort, Summary, Transaction, TransactionPage } from '../core/types.js';
import {
  countTransactions,
  iterateRows,
  loadRelations,
  selectById,
  selectMatching,
  selectPage,
  toTransaction,
  withSpamResolved,
  type TransactionRow,
} from '../store/transactions.js';
import { totals } from '../store/rollups.js';
import { tagAccessOfPage } from '../store/tag-pages.js';
import { getWallet } from '../store/ledger.js';

/** Rows as the API shows them, with their tags and attachments (one query each for the batch). */
export function hydrate(engine: Engine, rows: TransactionRow[]): Transaction[] {
  const { tags, attachments } = loadRelations(
    engine.db,
    rows.map((r) => r.id),
    engine.attachmentUrl,
  );
  return rows.map((r) => toTransaction(r, tags.get(r.id) ?? [], attachments.get(r.id) ?? []));
}

export function summaryOf(engine: Engine, workspaceId: string, filter: TxFilter): Summary {
  const t = totals(engine.db, workspaceId, filter);
  return {
    total_inflow: centsToNumber(t.inflowCents),
    total_outflow: centsToNumber(t.outflowCents),
    net_flow: centsToNumber(t.inflowCents - t.outflowCents),
    transaction_count: t.count,
  };
}

/** An unknown wallet in a filter is an error (docs/server.md "Filters, dates and amounts"); unknown tag ids just match nothing. */
export function checkFilterWallets(engine: Engine, workspaceId: string, filter: TxFilter, field: string): void {
  for (const id of filter.walletIds ?? []) {
    if (!getWallet(engine.db, workspaceId, id)) throw new TxaError('WALLET_NOT_FOUND', `wallet ${id} not found`, { field });
  }
}

export function listTransactions(engine: Engine, workspaceId: string, params: QueryParams): TransactionPage {
  const query = parseTxQuery(params);
  engine.workspace(workspaceId);
  checkFilterWallets(engine, workspaceId, query.filter, 'wallet_id');
  // One read transaction: the page, the count and the summary see the same snapshot.
  return engine.db.transaction(() => {
    const filter = withSpamResolved(engine.db, workspaceId, query.filter);
    const summary = summaryOf(engine, workspaceId, filter);
    const total = summary.transaction_count;
    const offset = (query.page - 1) * query.limit;
    const tags = tagAccessOfPage(engine.db, workspaceId, filter, total, offset + query.limit);
    const rows = selectPage(engine.db, workspaceId, filter, query.sort, query.limit, offset, tags);
    return {
      data: hydrate(engine, rows),
      pagination: paginationOf(total, query),
      summary,
    };
  })();
}

/** Every matching transaction in order, hydrated in batches, for exports. */
export function* streamTransactions(engine: Engine, workspaceId: string, filter: TxFilter, sort: Sort, batchSize = 500): Generator<Transaction> {
  for (const batch of batches(iterateRows(engine.db, workspaceId, filter, sort), batchSize)) yield* hydrate(engine, batch);
}

/** The transaction `id` when `filter` selects it, else null. */
export function findMatching(engine: Engine, workspaceId: string, filter: TxFilter, id: string): Transaction | null {
  const row = selectMatching(engine.db, workspaceId, filter, id);
  return row ? hydrate(engine, [row])[0]! : null;
}

export function countMatching(engine: Engine, workspaceId: string, filter: TxFilter): number {
  return countTransactions(engine.db, workspaceId, filter);
}

export function requireRow(engine: Engine, workspaceId: string, txId: string): TransactionRow {
  const row = selectById(engine.db, workspaceId, txId);
  if (!row) throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${txId} not found`);
  return row;
}

export function getTransaction(engine: Engine, workspaceId: string, txId: string): Transaction {
  return hydrate(engine, [requireRow(engine, workspaceId, txId)])[0]!;
}
