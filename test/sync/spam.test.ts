/**
 * Spam flagging on a real ledger (docs/sync.md, "Spam"): the replay explorer serves address
 * poisoning, a copied USDT and a phishing-named token in the API's shapes; the synced rows are
 * flagged, the explorer CSV exports of the same history flag the same rows, and the user's
 * verdicts on tokens decide future syncs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { markTokens } from '../../src/engine/spam-tokens.js';
import { listTransactions } from '../../src/engine/transactions.js';
import { WalletSync } from '../../src/sync/wallet-sync.js';
import { syncSettings } from '../../src/sync/settings.js';
import { tempEngine } from '../helpers/engine.js';
import { replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { BAIT_TOKEN, FAKE, FAKE_USDT, WALLET, apiLists, csvFiles, hash, history, withSpam } from '../helpers/sync-history.js';

let engine: Engine;
let ws: string;
let dir: string;
let server: ReplayServer;

beforeEach(async () => {
  ({ engine, ws, dir } = tempEngine('enterprise'));
  server = await replayServer(apiLists(withSpam(history()), 'etherscan'));
});
afterEach(async () => {
  engine.close();
  await server.close();
});

const sync = (walletId: string, workspaceId = ws) =>
  new WalletSync(
    engine,
    workspaceId,
    syncSettings({ TXA_ETHERSCAN_URL: server.url, TXA_ETHERSCAN_API_KEY: 'k', TXA_SYNC_RPS: '1000', TXA_SYNC_PAGE_SIZE: '5' }),
  ).sync(walletId);

/** Every stored field of a wallet's rows but the id and wallet, the spam flag and its reason included. */
function rowsOf(walletId: string): unknown[] {
  return engine.db
    .prepare(
      `SELECT tx_hash, transfer_key, chain, from_address, to_address, token_symbol, token_address, token_decimals, amount, fiat_cents, direction, type, ts, notes, spam, r.reason
       FROM transactions t LEFT JOIN spam_reasons r ON r.transaction_id = t.id
       WHERE wallet_id = ? AND tx_hash NOT LIKE 'GENESIS_%' AND tx_hash NOT LIKE 'beacon-withdrawal:%' ORDER BY ts, tx_hash, transfer_key`,
    )
    .all(walletId);
}

/** The flagged rows of a wallet: hash, token and why. */
function flagged(walletId: string): { tx_hash: string; token_address: string; reason: string | null }[] {
  return engine.db
    .prepare(
      'SELECT tx_hash, token_address, r.reason FROM transactions t LEFT JOIN spam_reasons r ON r.transaction_id = t.id WHERE wallet_id = ? AND spam = 1 ORDER BY tx_hash',
    )
    .all(walletId) as never;
}

function importCsvs(walletId: string, workspaceId: string) {
  for (const [name, text] of Object.entries(csvFiles(withSpam(history())))) {
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, text);
    importFile(engine, workspaceId, path, { walletId });
  }
}

const byHash = (rows: { tx_hash: string }[]) => Object.fromEntries(rows.map((r) => [r.tx_hash, r]));

describe('spam in a sync and in the CSV import of the same history', () => {
  it('flags poisoning, the copied USDT and the phishing token, and the CSV import flags the same rows field for field', async () => {
    const synced = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await sync(synced);
    expect(byHash(flagged(synced))).toEqual({
      [hash('poison')]: { tx_hash: hash('poison'), token_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', reason: 'poisoning' },
      [hash('fake-usdt')]: { tx_hash: hash('fake-usdt'), token_address: FAKE_USDT.contract, reason: 'lookalike' },
      [hash('reward')]: { tx_hash: hash('reward'), token_address: BAIT_TOKEN.contract, reason: 'bait' },
    });
    const other = createWorkspace(engine, { name: 'Imported', tier: 'enterprise' }).id;
    const imported = addWallet(engine, other, { address: WALLET, chain: 'ethereum' }).id;
    importCsvs(imported, other);
    expect(rowsOf(synced)).toEqual(rowsOf(imported));
    expect(flagged(imported)).toHaveLength(3);
  });

  it('flags the same rows whichever export is imported first: a zero-value transfer is unflagged when its tx proves the wallet sent it', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const files = csvFiles(withSpam(history()));
    for (const name of ['tokens', 'internal', 'normal'] as const) {
      writeFileSync(join(dir, `${name}.csv`), files[name]);
      importFile(engine, ws, join(dir, `${name}.csv`), { walletId: w });
    }
    expect(
      flagged(w)
        .map((r) => r.tx_hash)
        .sort(),
    ).toEqual([hash('poison'), hash('fake-usdt'), hash('reward')].sort());
    const zero = engine.db
      .prepare('SELECT id FROM transactions WHERE wallet_id = ? AND tx_hash = ? AND token_address IS NOT NULL')
      .pluck()
      .get(w, hash('approve'));
    const updated = engine.db
      .prepare("SELECT payload ->> '$.changes.spam.new' FROM events WHERE type = 'transaction.updated' AND subject_id = ?")
      .pluck()
      .all(zero);
    expect(updated).toEqual([0]);
  });

  it('keeps a zero-value transfer in a tx the wallet sent, and the spam rows themselves', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await sync(w);
    const zero = engine.db
      .prepare('SELECT spam, amount FROM transactions WHERE wallet_id = ? AND tx_hash = ? AND token_address IS NOT NULL')
      .all(w, hash('approve'));
    expect(zero).toEqual([{ spam: 0, amount: '0' }]);
    // Kept, flagged, and out of the list unless asked for.
    const listed = (params: Record<string, string>) => listTransactions(engine, ws, { wallet_id: w, limit: '200', ...params }).data.map((t) => t.tx_hash);
    expect(listed({})).not.toContain(hash('fake-usdt'));
    expect(listed({ include_spam: 'true' })).toEqual(expect.arrayContaining([hash('poison'), hash('fake-usdt'), hash('reward')]));
  });

  it("follows the user's verdicts: a marked token is flagged, an unspammed one is not", async () => {
    markTokens(engine, ws, [{ chain: 'ethereum', address: FAKE.contract }], true);
    markTokens(engine, ws, [{ chain: 'ethereum', address: FAKE_USDT.contract }], false);
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await sync(w);
    expect(
      flagged(w)
        .map((r) => [r.tx_hash, r.reason])
        .sort(),
    ).toEqual(
      [
        [hash('poison'), 'poisoning'],
        [hash('reward'), 'bait'],
        [hash('spam'), 'marked'],
      ].sort(),
    );
  });
});
