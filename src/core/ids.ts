/**
 * Identifiers: a type prefix and random hex (`tag_3f9c…`), the same led by the time where rows
 * are written in bulk (events), or a stable hash where identity is derived (transactions).
 */

/** node:crypto loads at the first id, not at start-up: commands that only read never pay its ≈ 2 ms. */
let cryptoModule: typeof import('node:crypto') | undefined;
const crypto = () => (cryptoModule ??= process.getBuiltinModule('node:crypto'));

/** Random hex drawn from the CSPRNG 4 KiB at a time: one call per ~400 ids instead of one each. */
const POOL_BYTES = 4096;
let pool = '';
let used = 0;

function randomHex(digits: number): string {
  if (used + digits > pool.length) {
    pool = crypto().randomBytes(POOL_BYTES).toString('hex');
    used = 0;
  }
  used += digits;
  return pool.slice(used - digits, used);
}

export function newId(prefix: string): string {
  return `${prefix}_${randomHex(20)}`;
}

/** Digits of a sortable id: milliseconds since 1970 (11 hex digits last until the year 2527), then a counter. */
const TIME_DIGITS = 11;
const COUNTER_DIGITS = 9;
/** Counters start below half their range, so a millisecond has room for 2^35 ids. */
const COUNTER_START_RANGE = 2 ** 35;
let lastMs = 0;
let counter = 0;

/**
 * An id as newId's (same prefix, 20 hex digits) whose text sorts by creation time: the
 * millisecond, then a counter that starts at a random value each millisecond and counts up
 * within it, so one process's ids strictly increase (a clock set back reuses the last
 * millisecond). Rows written in bulk under a unique index of these ids (events) append to its
 * end instead of landing on a random page each. Two processes' ids can only meet if both write
 * in the same millisecond and their counters' ranges overlap (odds of a few in a billion); the
 * unique index would then refuse the write rather than keep a duplicate.
 */
export function newSortableId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = parseInt(randomHex(COUNTER_DIGITS), 16) % COUNTER_START_RANGE;
  } else {
    counter++;
  }
  return `${prefix}_${lastMs.toString(16).padStart(TIME_DIGITS, '0')}${counter.toString(16).padStart(COUNTER_DIGITS, '0')}`;
}

/** A transaction's id follows from its identity (wallet, hash, transfer), so re-imports find it. */
export function transactionId(walletId: string, txHash: string, transferKey: string): string {
  return `tx_${crypto().hash('sha256', `${walletId}\0${txHash}\0${transferKey}`, 'hex').slice(0, 24)}`;
}
