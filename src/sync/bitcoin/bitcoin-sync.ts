/**
 * One Bitcoin wallet's sync from Esplora (docs/sync.md "Bitcoin"): its addresses (the one it is,
 * or an xpub's receive and change addresses up to 20 unused in a row), each address's confirmed
 * transactions newest first, page by page back to the first one the wallet already has, then the
 * rows of every new transaction (a transaction touching several of the wallet's addresses once)
 * written with the addresses' counts in one database transaction. Esplora only pages newest
 * first, so nothing is stored before a whole walk is done: a sync stopped half-way stores nothing
 * of it and the next one walks again, rather than take the newest rows for all there is.
 */
import type { Engine } from '../../engine/engine.js';
import { importRecords } from '../../engine/imports.js';
import { TxaError } from '../../core/errors.js';
import type { HDKey } from '@scure/bip32';
import { derivedAddress, extendedKey, isExtendedKey, type ExtendedKey, type KeyChain } from '../../core/bitcoin-keys.js';
import type { ImportRecord } from '../../importers/types.js';
import type { WalletRow } from '../../store/ledger.js';
import { getSyncCursor, setSyncCursor, walletTxHashes } from '../../store/sync-cursors.js';
import { storedXpubAddresses, storeXpubAddresses } from '../../store/xpub-addresses.js';
import type { TokenBucket } from '../rate-limiter.js';
import type { SyncSettings } from '../settings.js';
import { CHAIN_PAGE, EsploraApi } from './esplora-api.js';
import { txRecords } from './tx-rows.js';

/** Unused addresses in a row after which an xpub's chain is taken to end (BIP 44's gap limit). */
export const GAP_LIMIT = 20;

/** What the run counts as it goes; WalletSync's run has these fields. */
export interface BitcoinCounts {
  created: number;
  duplicates: number;
  lastBlock: number;
  requests: number;
}

export interface BitcoinOptions {
  dryRun?: boolean;
  onNotice?: (message: string) => void;
  onInserted?: (ids: string[]) => void;
}

/** An address of the wallet and, for an xpub's, its confirmed count now (stored as its cursor once synced). */
interface Walked {
  address: string;
  chainTxs: number | null;
}

export async function syncBitcoin(
  engine: Engine,
  workspaceId: string,
  wallet: WalletRow,
  settings: SyncSettings,
  limiter: TokenBucket,
  counts: BitcoinCounts,
  opts: BitcoinOptions = {},
): Promise<void> {
  const api = new EsploraApi(settings.esploraUrl, limiter, settings.limits, opts.onNotice);
  try {
    const { own, walk, derived } = isExtendedKey(wallet.address)
      ? await xpubAddresses(api, wallet.address, storedXpubAddresses(engine.db, wallet.id), (a) => getSyncCursor(engine.db, wallet.id, cursorOf(a)))
      : single(wallet.address);
    const known = walletTxHashes(engine.db, workspaceId, wallet.id);
    // Addresses walked IN_FLIGHT at a time (each one's pages in turn), their transactions merged in
    // address order, as one walk after the other would find them.
    const perAddress = await inTurns(walk, (w) => newTxs(api, w.address, known, own));
    const found = new Map<string, NewTx>();
    for (const txs of perAddress) for (const [txid, tx] of txs) if (!found.has(txid)) found.set(txid, tx);
    const txs = [...found.values()].sort((a, b) => a.height - b.height || a.time - b.time);
    const records: ImportRecord[] = txs.flatMap((tx) => tx.records);
    for (const tx of txs) counts.lastBlock = Math.max(counts.lastBlock, tx.height);
    const write = () => {
      const summary =
        records.length > 0
          ? importRecords(engine, workspaceId, records, {
              walletId: wallet.id,
              dryRun: opts.dryRun,
              format: 'sync',
              source: { sync: 'esplora', chain: 'bitcoin', list: 'txs' },
              walletSynced: false,
              onInserted: opts.onInserted,
            })
          : undefined;
      if (!opts.dryRun) {
        for (const w of walk) if (w.chainTxs !== null) setSyncCursor(engine.db, wallet.id, cursorOf(w.address), w.chainTxs);
        for (const d of derived) storeXpubAddresses(engine.db, wallet.id, d.chain, d.from, d.addresses);
      }
      counts.created += summary?.imported ?? 0;
      counts.duplicates += summary?.duplicates ?? 0;
    };
    if (opts.dryRun) write();
    else engine.write(write);
  } finally {
    counts.requests += api.requests;
  }
}

/** An xpub address's cursor: its confirmed count when it was last synced whole. */
const cursorOf = (address: string) => `esplora:${address}`;

/** Addresses of one chain derived by this sync (not stored yet), from index `from` on. */
interface Derived {
  chain: KeyChain;
  from: number;
  addresses: string[];
}

function single(address: string): { own: Set<string>; walk: Walked[]; derived: Derived[] } {
  return { own: new Set([address]), walk: [{ address, chainTxs: null }], derived: [] };
}

/**
 * The xpub's receive and change addresses, each chain up to GAP_LIMIT unused in a row (`/address/:a`
 * counts confirmed and mempool transactions), and those whose confirmed count moved since the
 * last sync (their cursor), which are the ones to walk. Addresses an earlier sync derived are read
 * (`stored`, per chain from index 0); only those past them are derived, and returned to be stored.
 */
async function xpubAddresses(
  api: EsploraApi,
  xpub: string,
  stored: readonly [string[], string[]],
  synced: (address: string) => number,
): Promise<{ own: Set<string>; walk: Walked[]; derived: Derived[] }> {
  let key: ExtendedKey | undefined;
  const own = new Set<string>();
  const walk: Walked[] = [];
  const derived: Derived[] = [];
  for (const chain of [0, 1] as KeyChain[]) {
    const known = stored[chain];
    const fresh: Derived = { chain, from: known.length, addresses: [] };
    let branch: HDKey | undefined;
    const addressAt = (index: number): string => {
      if (index < known.length) return known[index]!;
      key ??= extendedKey(xpub);
      branch ??= key.hd.deriveChild(chain);
      const address = derivedAddress(key, chain, index, branch);
      fresh.addresses.push(address);
      return address;
    };
    // With `unused` unused in a row, the next GAP_LIMIT − unused addresses are asked for whatever
    // they answer: asked together, they are the calls one address after the other would make.
    for (let index = 0, unused = 0; unused < GAP_LIMIT; ) {
      const addresses = Array.from({ length: GAP_LIMIT - unused }, (_, i) => addressAt(index + i));
      index += addresses.length;
      const stats = await inTurns(addresses, (a) => api.stats(a));
      addresses.forEach((address, i) => {
        if (unused === GAP_LIMIT) return;
        own.add(address);
        const s = stats[i]!;
        unused = s.chainTxs + s.mempoolTxs > 0 ? 0 : unused + 1;
        if (s.chainTxs > 0 && synced(address) !== s.chainTxs) walk.push({ address, chainTxs: s.chainTxs });
      });
    }
    if (fresh.addresses.length > 0) derived.push(fresh);
  }
  return { own, walk, derived };
}

/**
 * Calls in flight at once: an answer's wait overlaps the others' and this thread's work (the rate
 * limiter still paces them), and a few sockets are all a public API is asked to keep open.
 */
const IN_FLIGHT = 8;

/** `f` of each item, IN_FLIGHT at a time, the answers in the items' order; the first failure fails the whole. */
async function inTurns<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await f(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, lane));
  return out;
}

/**
 * A new transaction as the walk keeps it: its block and time (the order of the rows) and its rows
 * for the wallet, made as its page arrives. Its inputs and outputs are not kept: a large wallet's
 * walk holds its rows, not every transaction's whole answer, until they are written.
 */
interface NewTx {
  height: number;
  time: number;
  records: ImportRecord[];
}

/**
 * The address's confirmed transactions the wallet does not have, in the order found: the first page
 * (mempool ones left out), then `/txs/chain/:last_seen_txid` while pages are full, stopping at the
 * first txid the wallet has. A page that brings nothing new is a server ignoring the cursor.
 */
async function newTxs(api: EsploraApi, address: string, known: ReadonlySet<string>, own: ReadonlySet<string>): Promise<Map<string, NewTx>> {
  const found = new Map<string, NewTx>();
  let lastSeen: string | undefined;
  for (;;) {
    const confirmed = (await api.txs(address, lastSeen)).filter((tx) => tx.confirmed);
    let fresh = 0;
    for (const tx of confirmed) {
      if (known.has(tx.txid)) return found;
      if (found.has(tx.txid)) continue;
      fresh++;
      found.set(tx.txid, { height: tx.blockHeight!, time: tx.blockTime!, records: txRecords(tx, own) });
    }
    if (confirmed.length < CHAIN_PAGE) return found;
    if (fresh === 0) {
      throw new TxaError(
        'SYNC_FAILED',
        `Esplora (${api.baseUrl}) answered the same page of ${address} again after ${lastSeen}: it ignores the last seen txid`,
        {
          hint: 'Check that TXA_ESPLORA_URL is an Esplora API (https://mempool.space/api, https://blockstream.info/api).',
        },
      );
    }
    lastSeen = confirmed.at(-1)!.txid;
  }
}
