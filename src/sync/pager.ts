/**
 * Block paging of one explorer list (docs/sync.md "Paging, cursors and atomicity"). A server may send fewer rows than the page
 * size asked for, so a short page is never taken as the end: each call asks from the last row's
 * block again, and the walk ends only when a call brings no row it has not already seen (after
 * looking once past a block that came back alone, which may have filled a capped page). Rows come
 * out in batches of whole blocks (the last block of a page may be cut off, so it waits for the
 * next call), each with the block the next call asks from: the caller stores a batch and that
 * cursor in one transaction, so a sync killed between pages goes on from the cursor and neither
 * loses nor repeats a row.
 *
 * An answer is checked whole before any of it is used (row-fields.ts), and the walk must make
 * progress (docs/sync.md, Rows a sync refuses): a row of a block before the one asked from means
 * the server ignores `startblock`, and a block that keeps bringing new rows is not one block; both
 * stop the sync with SYNC_FAILED rather than ask the same page for ever.
 */
import { TxaError } from '../core/errors.js';
import type { ApiRow, ExplorerApi } from './explorer-api.js';
import { blockOf, checkRows, type ListName } from './row-fields.js';

/** Calls that may ask from one block: the first, and a few more while rows keep appearing in it. */
const MAX_CALLS_PER_BLOCK = 5;

export interface Batch {
  rows: ApiRow[];
  /** Where the next call starts: every row of an earlier block has been yielded. */
  cursor: number;
}

/** A row's content, to tell rows apart; `confirmations` grows between calls and is left out. */
function keyOf(row: ApiRow): string {
  const { confirmations: _, ...rest } = row;
  return JSON.stringify(rest);
}

/** Counts of each row content (two identical token transfers in one tx are two rows). */
function countsOf(rows: ApiRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const k = keyOf(r);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/**
 * One answer's rows, each read once: a normal or internal transaction is one row however often the
 * answer repeats it (its rows carry the hash, and internal ones a trace id), while two identical
 * token transfers in one tx are two (tokentx rows have no log index: docs/sync.md).
 */
function distinctRows(list: ListName, rows: ApiRow[]): ApiRow[] {
  if (list !== 'txlist' && list !== 'txlistinternal') return rows;
  const byKey = new Map<string, ApiRow>();
  for (const r of rows) {
    const key = keyOf(r);
    if (!byKey.has(key)) byKey.set(key, r);
  }
  return [...byKey.values()];
}

function failed(list: ListName, address: string, block: number, why: string): TxaError {
  return new TxaError('SYNC_FAILED', `the explorer's ${list} for ${address} ${why} (asked from block ${block})`, {
    extra: { list, block },
    hint: 'What came before that block is kept. Check the explorer URL (TXA_ETHERSCAN_URL, TXA_BLOCKSCOUT_URL_<CHAIN>) and run txa wallet sync again.',
  });
}

/** Whether `rows` hold a row (counting repeats) that `held` does not. */
function freshIn(rows: ApiRow[], held: ApiRow[]): boolean {
  const seen = countsOf(held);
  return [...countsOf(rows)].some(([k, n]) => n > (seen.get(k) ?? 0));
}

export async function* pages(api: ExplorerApi, list: ListName, address: string, from: number, pageSize: number): AsyncGenerator<Batch> {
  let start = from;
  /** Rows of block `start` already seen, not yet yielded. */
  let held: ApiRow[] = [];
  let callsHere = 0;
  for (;;) {
    const params: Record<string, string | number> = { address, startblock: start, page: 1, offset: pageSize, sort: 'asc' };
    if (api.source.kind === 'etherscan') params.endblock = 'latest';
    if (++callsHere > MAX_CALLS_PER_BLOCK) throw failed(list, address, start, `brought new rows of block ${start} in each of ${MAX_CALLS_PER_BLOCK} calls`);
    const answer = await api.list(list, params);
    checkRows(list, answer);
    const rows = distinctRows(list, answer);
    const blocks = rows.map(blockOf);
    const early = blocks.findIndex((b) => b < start);
    if (early >= 0) throw failed(list, address, start, `answered a row of block ${blocks[early]}, before the block asked from: it ignores startblock`);
    // Held rows are all of block `start`: a row of another block is new without comparing contents.
    const fresh = blocks.some((b) => b !== start) || freshIn(rows, held);
    if (!fresh) {
      if (rows.length === 0) break;
      // Only block `start` again, every row seen: it is complete, but it may just have filled a
      // capped page, so look past it before taking this as the end.
      yield { rows: held, cursor: start + 1 };
      held = [];
      start += 1;
      callsHere = 0;
      continue;
    }
    const last = Math.max(...blocks);
    // A full page (repeats included) of one block: the block may hold more than a page.
    if (Math.min(...blocks) === last && answer.length >= pageSize) {
      throw new TxaError('SYNC_FAILED', `block ${last} holds at least ${answer.length} rows of ${list} for ${address}, more than one page`, {
        hint: 'Raise TXA_SYNC_PAGE_SIZE (up to 10000) and run txa wallet sync again.',
      });
    }
    yield { rows: rows.filter((_, i) => blocks[i]! < last), cursor: last };
    held = rows.filter((_, i) => blocks[i] === last);
    if (last > start) callsHere = 0;
    start = last;
  }
  if (held.length > 0) yield { rows: held, cursor: start };
}
