/**
 * Spam on the ledger (docs/sync.md, "Spam"): the user's verdicts on tokens (`txa tokens spam|
 * unspam|list`), and the last word on an import's or a sync's rows, which need the ledger:
 * whether the wallet sent a zero-value transfer's tx, and the verdicts. The rules that read a row
 * alone are accounting/spam.ts. Spam rows are kept and flagged, never dropped, and never legs of
 * own transfers.
 */
import type { Engine } from './engine.js';
import { CHAIN_INFO } from '../core/chains.js';
import type { Chain } from '../core/types.js';
import { nowIso } from '../core/clock.js';
import type { TokenRef } from '../core/token-ref.js';
import { transactionId } from '../core/ids.js';
import { TOKEN_REASONS, type SpamReason } from '../accounting/spam.js';
import { selectById, selectByIds, transactionExists } from '../store/transactions.js';
import { updateValues } from '../store/insert-transactions.js';
import { deleteTransfer } from '../store/transfers.js';
import { listTokenMarks, poisoningRows, setSpamReason, setTokenMark, tokenMarks, tokenRowIds } from '../store/spam.js';
import { changing } from './transaction-changes.js';

/** A verdict as `txa tokens …` prints it; `changed`: the rows whose flag it turned. */
export interface TokenMark {
  chain: Chain;
  address: string;
  spam: boolean;
  marked_at: string;
  changed?: number;
}

export function listMarks(engine: Engine, workspaceId: string): TokenMark[] {
  engine.workspace(workspaceId);
  return listTokenMarks(engine.db, workspaceId).map((r) => ({ chain: r.chain as Chain, address: r.address, spam: r.spam === 1, marked_at: r.marked_at }));
}

/**
 * Records the user's verdict on each token and turns its rows, all in one database transaction,
 * with `transaction.updated` for each row changed. Spam: every row of the token that no person or
 * rule decided on is flagged (`marked`), and leaves any own transfer it was a leg of. Not spam:
 * the rows flagged for the token's sake (lookalike, bait, marked) are unflagged; zero-value
 * poisoning and rows flagged by hand or rule stay. Future imports and syncs follow the verdict.
 */
export function markTokens(engine: Engine, workspaceId: string, refs: TokenRef[], spam: boolean): TokenMark[] {
  engine.workspace(workspaceId);
  return engine.write(() =>
    refs.map(({ chain, address }) => {
      const mark = { chain, address, spam, marked_at: nowIso() };
      setTokenMark(engine.db, workspaceId, { ...mark, spam: Number(spam) });
      const ids = tokenRowIds(engine.db, workspaceId, chain, address, spam, TOKEN_REASONS);
      flip(engine, workspaceId, ids, spam);
      return { ...mark, changed: ids.length };
    }),
  );
}

/**
 * Rows' flags turned (a verdict on their token, or poisoning candidates in txs the wallet sent),
 * with their events (and those of the counterparts they leave). In bulk: the rows read in
 * batches, their values written in one pass (rollup deltas summed per key, store's updateValues).
 */
function flip(engine: Engine, workspaceId: string, ids: string[], spam: boolean): void {
  if (ids.length === 0) return;
  const rows = selectByIds(engine.db, workspaceId, ids);
  const legs = rows.flatMap((r) => (r.transfer_counterpart && spam ? [r.id, r.transfer_counterpart] : [r.id]));
  changing(engine, workspaceId, legs, () => {
    const transfers = new Set(spam ? rows.flatMap((r) => r.transfer_id ?? []) : []);
    for (const transfer of transfers) deleteTransfer(engine.db, transfer);
    updateValues(
      engine.db,
      rows.map((row) => ({ row, next: { fiat_cents: row.fiat_cents, fiat_value_source: row.fiat_value_source, spam: Number(spam) } })),
    );
    for (const { id } of rows) setSpamReason(engine.db, id, spam ? 'marked' : null);
  });
}

/** What settling an incoming row reads and sets (engine/imports.ts PlannedRow). */
export interface IncomingRow {
  id: string;
  wallet_id: string;
  chain: string;
  tx_hash: string;
  token_address: string | null;
  type: string;
  spam: number;
  spam_reason?: SpamReason;
}

/**
 * The final flag of rows about to be inserted, from the reason their content gave
 * (accounting/spam.ts) and the ledger: a zero-value transfer is no poisoning when the wallet sent
 * the tx (the ledger, or these rows, hold its fee: a normal-transactions list or file imported
 * first); the user's verdict on the token clears the token's own reasons or marks the row.
 */
export function settleIncomingSpam(engine: Engine, workspaceId: string, rows: IncomingRow[]): void {
  const marks = tokenMarks(engine.db, workspaceId);
  let ids: Set<string> | undefined;
  for (const row of rows) {
    let reason = row.spam_reason;
    const verdict = row.token_address === null ? undefined : marks.get(`${row.chain}:${row.token_address}`);
    if (reason === 'poisoning') {
      ids ??= new Set(rows.map((r) => r.id));
      const fee = feeRowId(row);
      if (ids.has(fee) || transactionExists(engine.db, fee)) reason = undefined;
    }
    if (verdict === false && reason && TOKEN_REASONS.includes(reason)) reason = undefined;
    if (verdict === true && !reason) reason = 'marked';
    row.spam_reason = reason;
    row.spam = reason ? 1 : 0;
  }
}

/** The id of the fee row the wallet has for a tx it sent: the transfer key engine/imports.ts gives a fee, `fee:<native symbol>:outflow:0`. */
function feeRowId(row: IncomingRow): string {
  const native = CHAIN_INFO[row.chain as Chain].native;
  return transactionId(row.wallet_id, row.tx_hash, `fee:${native.address ?? native.symbol}:outflow:0`);
}

/**
 * After an insert, in its transaction: records why the new rows are spam, and unflags stored
 * zero-value transfers of txs whose fee just arrived (the wallet sent them after all: a token
 * export imported before the normal-transactions one), so the order of the files does not matter.
 */
export function recordSpamReasons(engine: Engine, workspaceId: string, inserted: IncomingRow[]): void {
  const sent = new Set<string>();
  for (const row of inserted) {
    if (row.spam_reason) setSpamReason(engine.db, row.id, row.spam_reason);
    if (row.type === 'fee') sent.add(`${row.wallet_id}\0${row.tx_hash}`);
  }
  if (sent.size === 0) return;
  const sentNow = poisoningRows(engine.db, workspaceId).filter((p) => sent.has(`${p.wallet_id}\0${p.tx_hash}`));
  flip(
    engine,
    workspaceId,
    sentNow.map((p) => p.id),
    false,
  );
}

/** The counterpart that a row about to be flagged by hand leaves (a spam row is never a leg of an own transfer), for its event. */
export function counterpartLeaving(engine: Engine, workspaceId: string, txId: string, spam: boolean | undefined): string[] {
  if (spam !== true) return [];
  const counterpart = selectById(engine.db, workspaceId, txId)?.transfer_counterpart;
  return counterpart ? [counterpart] : [];
}

/** A person or a rule set a row's flag: its own decision, which verdicts on its token leave alone. */
export function decidedByHand(engine: Engine, transactionId: string): void {
  setSpamReason(engine.db, transactionId, 'user');
}
