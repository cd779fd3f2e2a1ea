/**
 * The addresses an xpub wallet's syncs derived (migration 31; docs/sync.md "Bitcoin", xpubs):
 * per wallet, chain (0 receive, 1 change) and index, the address BIP 32 gives there. An address
 * is a function of the key the wallet stores, which never changes, so a later sync reads them
 * instead of deriving them again (a few ms each, and a fresh process's curve tables on the first).
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

/** The wallet's stored addresses of each chain, index order, as far as they run without a gap from index 0. */
export function storedXpubAddresses(db: Db, walletId: string): [string[], string[]] {
  const rows = prepareCached(db, 'SELECT chain, idx, address FROM xpub_addresses WHERE wallet_id = ? ORDER BY chain, idx').raw(true).all(walletId) as [
    number,
    number,
    string,
  ][];
  const chains: [string[], string[]] = [[], []];
  for (const [chain, idx, address] of rows) {
    const list = chains[chain as 0 | 1];
    if (list && idx === list.length) list.push(address);
  }
  return chains;
}

/** Stores addresses of the wallet's chain from index `from` on (those it has already are kept). */
export function storeXpubAddresses(db: Db, walletId: string, chain: number, from: number, addresses: readonly string[]): void {
  const insert = prepareCached(db, 'INSERT OR IGNORE INTO xpub_addresses (wallet_id, chain, idx, address) VALUES (?, ?, ?, ?)');
  for (const [i, address] of addresses.entries()) insert.run(walletId, chain, from + i, address);
}
