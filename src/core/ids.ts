/** Identifiers: a type prefix and random hex (`tag_3f9c…`), or a stable hash where identity is derived. */
import { createHash, randomBytes } from 'node:crypto';

/** Random hex drawn from the CSPRNG 4 KiB at a time: one call per ~400 ids instead of one each. */
const POOL_BYTES = 4096;
let pool = '';
let used = 0;

export function newId(prefix: string): string {
  if (used + 20 > pool.length) {
    pool = randomBytes(POOL_BYTES).toString('hex');
    used = 0;
  }
  used += 20;
  return `${prefix}_${pool.slice(used - 20, used)}`;
}

/** A transaction's id follows from its identity (wallet, hash, transfer), so re-imports find it. */
export function transactionId(walletId: string, txHash: string, transferKey: string): string {
  return `tx_${createHash('sha256').update(`${walletId}\0${txHash}\0${transferKey}`).digest('hex').slice(0, 24)}`;
}
