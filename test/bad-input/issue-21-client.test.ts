import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as importCmd from '../../src/cli/commands/import/import.js';
import * as add from '../../src/cli/commands/wallet/add.js';
import * as sync from '../../src/cli/commands/wallet/sync.js';
import { type EsploraReplay, esploraReplay, tx } from '../helpers/esplora-replay.js';
import { tempLedger } from '../helpers/in-process-ledger.js';
import { runInProcess } from '../helpers/in-process.js';
import { type CliRun, envSaved, fileIn, refusedIn } from './snapshot.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
let db: string;
let workspace: string;
let dir: string;
let coinbase: string;
let btc: string;
let esplora: EsploraReplay;
const restoreEnv = envSaved('TXA_ESPLORA_URL', 'TXA_SYNC_RPS', 'TXA_SYNC_TIMEOUT');

const json = () => ({ db, workspace, json: true });
const importing = (file: string, walletId = coinbase) => runInProcess('txa import', importCmd.run, { file, walletId, format: 'auto' }, json());
const file = (name: string, text: string) => fileIn(dir, name, text);
const refused = (run: () => Promise<CliRun>, skip: string[] = []) => refusedIn(db, run, skip);

/** A failed sync records its attempt (wallet_syncs, for `wallet sync` status); no other table may change. */
const SYNC_RECORDS = ['wallet_syncs'];

const CB_HEADER =
  'Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n';

beforeAll(async () => {
  ({ db, workspace, dir } = tempLedger());
  coinbase = JSON.parse((await runInProcess('txa wallet add', add.run, { exchange: 'coinbase', label: 'Coinbase' }, json())).stdout).data.id;
  // One good import first, so "nothing changed" is checked against a ledger with rows.
  expect((await importing(join(FIXTURES, 'coinbase-2024.csv'))).exitCode).toBe(0);
  // One address, so each fault answers the sync's one walk (an xpub's walks would retry past them).
  btc = JSON.parse(
    (await runInProcess('txa wallet add', add.run, { chain: 'bitcoin', address: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', label: 'Cold' }, json())).stdout,
  ).data.id;
  esplora = await esploraReplay([tx('bad', 820_001, [['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 150_000]], [['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 123_456]])]);
  process.env.TXA_ESPLORA_URL = esplora.url;
  process.env.TXA_SYNC_RPS = '1000';
});

afterAll(async () => {
  restoreEnv();
  await esplora?.close();
});

describe('issue 21: exchange files (txa import --wallet-id)', () => {
  it("a file of another exchange's layout (Kraken into a Coinbase account): USAGE_ERROR (wallet) saying it looks like Kraken, exit 2", async () => {
    const { exit, error } = await refused(() => importing(join(FIXTURES, 'kraken-ledgers-2024.csv')));
    expect([exit, error.code, error.field]).toEqual([2, 'USAGE_ERROR', 'wallet']);
    expect(error.message).toMatch(/is a Coinbase account; the file looks like a Kraken export/);
  });

  it('a changed header (Coinbase without Quantity Transacted): IMPORT_FAILED naming the layout it looks like and the missing column, exit 1', async () => {
    const text = CB_HEADER.replace('Quantity Transacted', 'Amount') + '2023-01-01T00:00:00Z,Buy,ETH,1,USD,1000,1000,1010,10,Bought\n';
    const { exit, error } = await refused(() => importing(file('cb-changed.csv', text)));
    expect([exit, error.code, error.field]).toEqual([1, 'IMPORT_FAILED', 'Quantity Transacted']);
    expect(error.message).toBe("the header looks like a Coinbase transaction history but lacks column 'Quantity Transacted'; was the layout changed?");
    // Behind a preamble too, and for Kraken's layout.
    const kraken =
      '"txid","refid","time","type","subtype","aclass","asset","amount","fee"\n"L1","R1","2024-01-01 00:00:00","deposit","","currency","XETH",1,0\n';
    const k = await refused(() => importing(file('kraken-changed.csv', kraken)));
    expect([k.exit, k.error.code, k.error.field]).toEqual([1, 'IMPORT_FAILED', 'balance']);
    expect(k.error.message).toMatch(/looks like a Kraken ledgers export but lacks column 'balance'/);
  });

  it('an unknown transaction type: every row counted and named (line, field, the type), no direction guessed, nothing imported', async () => {
    const text = `${CB_HEADER}2023-01-01T00:00:00Z,Buy,ETH,1,USD,1000,1000,1010,10,Bought\n2023-01-02T00:00:00Z,Mystery Payout,ETH,1,USD,1000,1000,1000,0,\n2023-01-03T00:00:00Z,Mystery Payout,ETH,2,USD,1000,1000,1000,0,\n`;
    const { exit, error } = await refused(() => importing(file('cb-type.csv', text)));
    expect([exit, error.code]).toEqual([1, 'IMPORT_FAILED']);
    expect(error.message).toBe('2 rows are invalid; nothing was imported');
    expect(error).toMatchObject({
      error_count: 2,
      errors: [
        { line: 3, field: 'Transaction Type', reason: "unknown Coinbase transaction type 'Mystery Payout'" },
        { line: 4, field: 'Transaction Type', reason: "unknown Coinbase transaction type 'Mystery Payout'" },
      ],
    });
  });

  it('a fiat amount that is not a number (Coinbase and exchange-csv): the line, the column and the value', async () => {
    const cb = await refused(() => importing(file('cb-nan.csv', `${CB_HEADER}2023-01-03T00:00:00Z,Buy,ETH,1,USD,1000,1000,ten,10,\n`)));
    expect([cb.exit, cb.error.code]).toEqual([1, 'IMPORT_FAILED']);
    expect(cb.error.errors).toEqual([{ line: 2, field: 'Total (inclusive of fees and/or spread)', reason: "not a number: 'ten'" }]);
    const h = 'date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note\n';
    const x = await refused(() =>
      importing(file('x-nan.csv', `${h}2024-01-01T00:00:00Z,buy,ETH,1,USD,12O0,,,,,\n2024-01-02T00:00:00Z,airdrop,ETH,1,USD,1200,,,,,\n`)),
    );
    expect([x.exit, x.error.code]).toEqual([1, 'IMPORT_FAILED']);
    expect(x.error.errors).toEqual([
      { line: 2, field: 'fiat_amount', reason: "not a number: '12O0'" },
      { line: 3, field: 'type', reason: "must be one of buy, sell, trade_in, trade_out, deposit, withdrawal, income, fee, got 'airdrop'" },
    ]);
  });
});

describe('issue 21: Bitcoin keys, addresses and the Esplora server', () => {
  it('an xpub with a bad checksum, a testnet key, addresses of the wrong network: INVALID_FIELD naming the field and the value, exit 1', async () => {
    const cases: [add.AddOptions, string, RegExp][] = [
      [{ chain: 'bitcoin', xpub: `${ZPUB.slice(0, -1)}t` }, 'xpub', /^xpub has a bad checksum/],
      [
        { chain: 'bitcoin', xpub: 'tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp' },
        'xpub',
        /'tpubD6NzVbkr…' is a testnet key/,
      ],
      [
        { chain: 'bitcoin', address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' },
        'address',
        /'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' is a testnet address/,
      ],
      [
        { chain: 'bitcoin', address: 'ltc1qg82kdz3fzl0pzz0arzs2kqy5mc0mdsrh5lkmq2' },
        'address',
        /'ltc1qg82kdz3fzl0pzz0arzs2kqy5mc0mdsrh5lkmq2' is not a Bitcoin mainnet address/,
      ],
      [{ chain: 'ethereum', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, 'address', /0x-prefixed 40-hex-digit address, got 'bc1qar0s/],
    ];
    for (const [opts, field, why] of cases) {
      const { exit, error } = await refused(() => runInProcess('txa wallet add', add.run, opts, json()));
      expect([JSON.stringify(opts), exit, error.code, error.field]).toEqual([JSON.stringify(opts), 1, 'INVALID_FIELD', field]);
      expect(error.message).toMatch(why);
    }
  });

  it('an Esplora server answering HTML: SYNC_FAILED naming the URL and saying HTML, no row written', async () => {
    esplora.faults.push({ html: true });
    const { exit, error } = await refused(() => runInProcess('txa wallet sync', sync.run, { ids: [btc] }, json()), SYNC_RECORDS);
    expect([exit, error.code]).toEqual([1, 'SYNC_FAILED']);
    expect(error.message).toContain(`Esplora (${esplora.url})`);
    expect(error.message).toMatch(/answered HTML, not JSON .*TXA_ESPLORA_URL.*0 new transactions kept$/);
  });

  it('an Esplora server that never answers: SYNC_FAILED after its tries, saying the timeout, no row written', async () => {
    process.env.TXA_SYNC_TIMEOUT = '0.1';
    esplora.faults.push(...Array.from({ length: 6 }, () => ({ stall: true as const })));
    const { exit, error } = await refused(() => runInProcess('txa wallet sync', sync.run, { ids: [btc] }, json()), SYNC_RECORDS);
    expect([exit, error.code]).toEqual([1, 'SYNC_FAILED']);
    expect(error.message).toMatch(/no complete answer within 0.1 s \(after 6 tries\)/);
  });
});
