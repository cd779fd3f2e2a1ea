/**
 * The tax and income reports' input (ExportJob.ledgerRows, docs/accounting.md): every row of the
 * workspace up to the report's end, each marked `reported` when the export's filter selects it,
 * and the asset table the ledger's `assets.json` extends.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import { streamTransactions } from './transactions.js';
import { TxaError } from '../core/errors.js';
import type { TxFilter } from '../core/filters.js';
import type { Transaction } from '../core/types.js';
import { AssetTable, parseAssetEntries } from '../accounting/assets.js';
import { whereOf } from '../store/transactions.js';

/**
 * The filter of every row a report's lots can come from: the whole workspace until the filter's
 * end, spam left out unless the export includes it (CONTRACT §9).
 */
export function ledgerFilter(filter: TxFilter): TxFilter {
  return { ...(filter.endTs === undefined ? {} : { endTs: filter.endTs }), ...(filter.spam === undefined ? {} : { spam: filter.spam }) };
}

/**
 * `rows` (the ledgerFilter's rows, in timestamp then id order), each marked when `filter` selects
 * it: a merge with the filter's keys in the same order, so memory stays flat.
 */
export function* markReported(reader: Engine, workspaceId: string, filter: TxFilter, rows: Iterable<Transaction>): Generator<{ tx: Transaction; reported: boolean }> {
  // A filter that narrows nothing but the end (and spam, as the ledger stream does) selects every row: no keys to read.
  if (Object.entries(filter).every(([k, v]) => k === 'endTs' || k === 'spam' || v === undefined)) {
    for (const tx of rows) yield { tx, reported: true };
    return;
  }
  const w = whereOf(workspaceId, filter);
  const keys = (reader.db.prepare(`SELECT t.ts, t.id FROM transactions t WHERE ${w.sql} ORDER BY t.ts ASC, t.id ASC`).raw(true).iterate(...w.params)) as IterableIterator<[number, string]>;
  let next = keys.next();
  try {
    for (const tx of rows) {
      if (!next.done && next.value[1] !== tx.id) {
        // Keys of rows the ledger stream does not hold (none, as its filter is wider) are passed over.
        const ts = Date.parse(tx.timestamp) / 1000;
        while (!next.done && (next.value[0] < ts || (next.value[0] === ts && next.value[1] < tx.id))) next = keys.next();
      }
      const reported = !next.done && next.value[1] === tx.id;
      if (reported) next = keys.next();
      yield { tx, reported };
    }
  } finally {
    keys.return?.();
  }
}

/** The rows of ledgerFilter in order, hydrated (conversion is the caller's). */
export function ledgerStream(reader: Engine, workspaceId: string, filter: TxFilter): Iterable<Transaction> {
  return streamTransactions(reader, workspaceId, ledgerFilter(filter), 'timestamp_asc');
}

/** The default asset table extended by `<ledger>.files/assets.json` when there is one. */
export function loadAssetTable(engine: Engine): AssetTable {
  const path = join(engine.filesDir, 'assets.json');
  if (!existsSync(path)) return new AssetTable();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TxaError('INVALID_FIELD', `the ledger's assets.json is not valid JSON: ${(err as Error).message}`, { field: 'assets' });
  }
  try {
    return new AssetTable(parseAssetEntries(doc));
  } catch (err) {
    if (err instanceof TxaError) throw new TxaError(err.code, `the ledger's assets.json: ${err.message}`, { field: err.field });
    throw err;
  }
}
