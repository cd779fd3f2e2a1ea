/**
 * The order of the rows of one second (docs/accounting.md "Order within one second"). Rows come
 * from the store by timestamp (then id, which is hash-derived and means nothing); the rows of one
 * timestamp are put in this order before the ledger takes them, so the lots a row meets never
 * depend on ids:
 *
 * 1. by block, then position in the block (the transaction's index), where known; rows that know
 *    them come first. A row without them takes those of a row of its transaction (same chain and
 *    hash) that has them: an explorer lists internal transfers without the index;
 * 2. then by class: acquisitions (inflows that are not own-transfer legs), own-transfer legs (the
 *    sending leg first), other disposals, fees last. Within one transaction this is the rule for
 *    its own rows: what it brings in, its movement between own wallets, what it pays out, then
 *    its fee;
 * 3. then a stable key of the row's own content: tx hash, wallet (in wallet order), chain,
 *    token, amount, value, transfer id; the row id only between rows equal in all of these.
 */
import { compareDecimal } from '../core/money.js';
import type { LedgerRow } from './ledger-row.js';

/** The class of rule 2. */
export function classOf(tx: LedgerRow): number {
  if (tx.transfer) return 1;
  if (tx.direction === 'inflow') return 0;
  return tx.type === 'fee' ? 3 : 2;
}

const byNumber = (a: number | null | undefined, b: number | null | undefined): number => {
  const ka = a ?? null;
  const kb = b ?? null;
  if (ka === kb) return 0;
  if (ka === null) return 1;
  if (kb === null) return -1;
  return ka - kb;
};

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Place = { block: number | null; position: number | null };

/** Each row's block and position, a row without them taking its transaction's (rule 1). */
function placesOf(rows: readonly LedgerRow[]): (tx: LedgerRow) => Place {
  const own = (tx: LedgerRow): Place => ({ block: tx.block ?? null, position: tx.block_position ?? null });
  const known = new Map<string, Place>();
  for (const tx of rows) if (tx.block_position != null && tx.tx_hash !== '') known.set(`${tx.chain} ${tx.tx_hash}`, own(tx));
  if (known.size === 0) return own;
  return (tx) => (tx.block_position != null ? own(tx) : (known.get(`${tx.chain} ${tx.tx_hash}`) ?? own(tx)));
}

/**
 * Sorts the rows of one timestamp into the order of this module. `plain` is secondOrder's
 * comparator over the rows' own places, used when no row needs its transaction's (the common
 * case: rows of a file without blocks, or every row of a sync with its own).
 */
export function sortSecond<T extends { tx: LedgerRow }>(group: T[], walletRank: (walletId: string) => number, plain = secondOrder(walletRank)): void {
  let borrows = false;
  for (const { tx } of group) {
    if (tx.block_position == null && tx.tx_hash !== '') {
      borrows = group.some((r) => r.tx.block_position != null);
      break;
    }
  }
  if (!borrows) {
    group.sort((a, b) => plain(a.tx, b.tx));
    return;
  }
  const placeOf = placesOf(group.map((r) => r.tx));
  const places = new Map(group.map((r) => [r.tx, placeOf(r.tx)]));
  const cmp = secondOrder(walletRank, (tx) => places.get(tx)!);
  group.sort((a, b) => cmp(a.tx, b.tx));
}

/** A comparator of rows of one timestamp; `walletRank` is a wallet's place in wallet order, `placeOf` a row's block and position (default: its own). */
export function secondOrder(walletRank: (walletId: string) => number, placeOf?: (tx: LedgerRow) => Place): (a: LedgerRow, b: LedgerRow) => number {
  const place = placeOf
    ? (a: LedgerRow, b: LedgerRow) => {
        const pa = placeOf(a);
        const pb = placeOf(b);
        return byNumber(pa.block, pb.block) || byNumber(pa.position, pb.position);
      }
    : (a: LedgerRow, b: LedgerRow) => byNumber(a.block, b.block) || byNumber(a.block_position, b.block_position);
  return (a, b) =>
    place(a, b) ||
    classOf(a) - classOf(b) ||
    // Sending leg first among legs.
    (a.transfer && b.transfer ? byText(a.direction === 'outflow' ? '0' : '1', b.direction === 'outflow' ? '0' : '1') : 0) ||
    byText(a.tx_hash, b.tx_hash) ||
    walletRank(a.wallet_id) - walletRank(b.wallet_id) ||
    byText(a.wallet_id, b.wallet_id) ||
    byText(a.chain, b.chain) ||
    byText(a.token.address ?? a.token.symbol, b.token.address ?? b.token.symbol) ||
    compareDecimal(a.amount.replace(/^-/, ''), b.amount.replace(/^-/, '')) ||
    byNumber(a.fiat_cents === null ? null : Number(a.fiat_cents), b.fiat_cents === null ? null : Number(b.fiat_cents)) ||
    byText(a.transfer?.id ?? '', b.transfer?.id ?? '') ||
    byText(a.id, b.id);
}
