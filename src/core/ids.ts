/** Identifiers: a type prefix and random hex (`tag_3f9c…`), or a stable hash where identity is derived. */
import { createHash, randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

/** A transaction's id follows from its identity (wallet, hash, transfer), so re-imports find it. */
export function transactionId(walletId: string, txHash: string, transferKey: string): string {
  return `tx_${createHash('sha256').update(`${walletId}\0${txHash}\0${transferKey}`).digest('hex').slice(0, 24)}`;
}
