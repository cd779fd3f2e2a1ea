/**
 * Exchange wallets (docs/storage.md "Exchange wallets"): `txa wallet add --exchange`, the Wallet
 * and Transaction shapes of their rows (chain, address and explorer_url null), lists, balances,
 * chain filters, `txa import --wallet-id` of an exchange file, and `wallet sync` refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as add from '../../../src/cli/commands/wallet/add.js';
import * as list from '../../../src/cli/commands/wallet/list.js';
import * as sync from '../../../src/cli/commands/wallet/sync.js';
import * as importCmd from '../../../src/cli/commands/import/import.js';
import { Engine } from '../../../src/engine/engine.js';
import { createWallet } from '../../../src/engine/wallets.js';
import { listTransactions } from '../../../src/engine/transactions.js';
import { txaErrorOf } from '../../helpers/errors.js';
import { tempLedger, WALLET_ADDRESS } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/import');
let db: string;
let workspace: string;
let dir: string;
let coinbase: string;

beforeAll(() => {
  ({ db, workspace, dir } = tempLedger());
});

describe('txa wallet add --exchange', () => {
  it('adds an exchange account: kind exchange, its exchange, no address or chain', async () => {
    const r = await runInProcess('txa wallet add', add.run, { exchange: 'coinbase', label: 'Coinbase' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ kind: 'exchange', exchange: 'coinbase', address: null, chain: null, label: 'Coinbase', transaction_count: 0 });
    expect(data.balance).toEqual({ native: '0', tokens: [], fiat_value: 0 });
    coinbase = data.id;
    const addr = await runInProcess('txa wallet add', add.run, { address: WALLET_ADDRESS, chain: 'ethereum', label: 'Main' }, { db, workspace, json: true });
    expect(JSON.parse(addr.stdout).data).toMatchObject({ kind: 'address', exchange: null, address: WALLET_ADDRESS, chain: 'ethereum' });
  });

  it('refuses --exchange with --chain or --address, an unknown exchange, and neither form (usage errors, exit 2)', async () => {
    for (const opts of [{ exchange: 'coinbase', chain: 'ethereum' }, { exchange: 'ftx' }, { label: 'x' }]) {
      const r = await runInProcess('txa wallet add', add.run, opts, { db, workspace, json: true });
      expect([r.exitCode, JSON.parse(r.stderr).error.code]).toEqual([2, 'USAGE_ERROR']);
    }
  });

  it('the API body: kind exchange needs exchange, takes no address or chain; an unknown kind or exchange is INVALID_FIELD', () => {
    const engine = Engine.open(db);
    try {
      const cases: [unknown, string, string][] = [
        [{ kind: 'exchange' }, 'MISSING_REQUIRED_FIELD', 'exchange'],
        [{ kind: 'exchange', exchange: 'mtgox' }, 'INVALID_FIELD', 'exchange'],
        [{ kind: 'exchange', exchange: 'kraken', chain: 'ethereum' }, 'INVALID_FIELD', 'chain'],
        [{ kind: 'vault', address: WALLET_ADDRESS, chain: 'ethereum' }, 'INVALID_FIELD', 'kind'],
        [{ chain: 'ethereum' }, 'MISSING_REQUIRED_FIELD', 'address'],
        [{ address: WALLET_ADDRESS, chain: 'base', exchange: 'kraken' }, 'INVALID_FIELD', 'exchange'],
      ];
      for (const [body, code, field] of cases) {
        const err = txaErrorOf(() => createWallet(engine, workspace, body));
        expect([body, err.code, err.field]).toEqual([body, code, field]);
      }
    } finally {
      engine.close();
    }
  });

  it('txa import FILE --wallet-id reads a Coinbase history into it; its rows have no chain and no explorer link', async () => {
    const r = await runInProcess(
      'txa import',
      importCmd.run,
      { file: join(FIXTURES, 'coinbase-2024.csv'), walletId: coinbase, format: 'auto' },
      { db, workspace, json: true },
    );
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ format: 'coinbase', imported: 11, skipped: 2 });
    const engine = Engine.open(db);
    try {
      const page = listTransactions(engine, workspace, { wallet_id: coinbase, limit: '100' });
      expect(page.data.length).toBe(11);
      for (const t of page.data) expect([t.chain, t.explorer_url, t.from_address, t.to_address]).toEqual([null, null, '', '']);
      // A filter by chain never matches an exchange's rows.
      expect(listTransactions(engine, workspace, { chain: 'ethereum' }).data).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('wallet list shows both kinds: the exchange where a chain goes, no address, and the exchange balances', async () => {
    const r = await runInProcess('txa wallet list', list.run, {}, { db, workspace });
    expect(r.stdout).toContain(`${coinbase}\tCoinbase\tcoinbase\tcoinbase account\t0\t`);
    expect(r.stdout).toContain('\tMain\tethereum\t0x1111111111111111111111111111111111111111\t');
    const json = await runInProcess('txa wallet list', list.run, {}, { db, workspace, json: true });
    const w = JSON.parse(json.stdout).data.find((x: { id: string }) => x.id === coinbase);
    // ETH: +1 (buy) − 0.2 (sell) − 0.1 (convert) + 0.001 (staking) − 0.5 (send) + 0.3 (receive) = 0.501.
    // USDC: −1000 − 4 (the SOL trade and its fee) + 300.5 (convert) = −703.5.
    expect(w.balance.tokens.map((t: { symbol: string; balance: string }) => [t.symbol, t.balance])).toEqual([
      ['ETH', '0.501'],
      ['LINK', '0.5'],
      ['SOL', '10'],
      ['USDC', '-703.5'],
    ]);
  });

  it('wallet sync of an exchange account: nothing to sync, import its files', async () => {
    const r = await runInProcess('txa wallet sync', sync.run, { ids: [coinbase] }, { db, workspace, json: true });
    expect(r.exitCode).not.toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain('SYNC_UNSUPPORTED_CHAIN');
    expect(out).toContain('is an exchange account (coinbase): there is nothing to sync');
  });

  it('a file of another exchange given --format names the format it looks like; a changed header is not guessed', async () => {
    const r = await runInProcess(
      'txa import',
      importCmd.run,
      { file: join(FIXTURES, 'kraken-ledgers.csv'), walletId: coinbase, format: 'coinbase' },
      { db, workspace, json: true },
    );
    expect(r.exitCode).toBe(1);
    const { error } = JSON.parse(r.stderr);
    expect(error.code).toBe('IMPORT_FAILED');
    expect(error.message).toContain('the file looks like a Kraken ledgers export: try --format kraken');
    // Kraken's header with `amount` renamed: no format claims it (none is guessed); the error names the layout it resembles and the column.
    const changed = join(dir, 'changed.csv');
    writeFileSync(changed, readFileSync(join(FIXTURES, 'kraken-ledgers.csv'), 'utf8').replace('"amount"', '"amt"'));
    const unknown = await runInProcess('txa import', importCmd.run, { file: changed, walletId: coinbase, format: 'auto' }, { db, workspace, json: true });
    expect(JSON.parse(unknown.stderr).error).toMatchObject({ code: 'IMPORT_FAILED', field: 'amount', looks_like: 'kraken', missing_columns: ['amount'] });
    // As kraken into a Kraken account, the column is named; into this Coinbase account, the account's exchange is (test/bad-input/issue-21-client.test.ts).
    const kraken = JSON.parse((await runInProcess('txa wallet add', add.run, { exchange: 'kraken', label: 'Kraken' }, { db, workspace, json: true })).stdout)
      .data.id;
    const asKraken = await runInProcess('txa import', importCmd.run, { file: changed, walletId: kraken, format: 'kraken' }, { db, workspace, json: true });
    expect(JSON.parse(asKraken.stderr).error).toMatchObject({ code: 'IMPORT_FAILED', field: 'amount', missing_columns: ['amount'] });
  });
});
