/** `txa wallet add --chain bitcoin` with an address or an xpub, in process on a real ledger (docs/sync.md "Bitcoin"). */
import { beforeAll, describe, expect, it } from 'vitest';
import * as add from '../../../src/cli/commands/wallet/add.js';
import * as list from '../../../src/cli/commands/wallet/list.js';
import * as sync from '../../../src/cli/commands/wallet/sync.js';
import { esploraReplay, tx } from '../../helpers/esplora-replay.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
let db: string;
let workspace: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger());
});

const adding = (opts: add.AddOptions) => runInProcess('txa wallet add', add.run, opts, { db, workspace, json: true });

describe('txa wallet add --chain bitcoin', () => {
  it('takes a taproot address and a zpub; the list shows the key as the wallet address', async () => {
    const taproot = 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr';
    const a = await adding({ chain: 'bitcoin', address: taproot.toUpperCase(), label: 'Cold' });
    expect(a.exitCode).toBe(0);
    expect(JSON.parse(a.stdout).data).toMatchObject({ chain: 'bitcoin', address: taproot, balance: { native: '0' } });
    const x = await adding({ chain: 'bitcoin', xpub: ZPUB, label: 'Ledger' });
    expect(x.exitCode).toBe(0);
    expect(JSON.parse(x.stdout).data).toMatchObject({ chain: 'bitcoin', address: ZPUB, label: 'Ledger' });
    const again = await adding({ chain: 'bitcoin', xpub: ZPUB });
    expect(JSON.parse(again.stderr).error).toMatchObject({ code: 'WALLET_ALREADY_EXISTS' });
    const l = await runInProcess('txa wallet list', list.run, { chain: 'bitcoin' }, { db, workspace });
    expect(l.stdout).toContain(`\tLedger\tbitcoin\t${ZPUB}\t`);
    expect(l.stdout).toContain(`\tCold\tbitcoin\t${taproot}\t`);
  });

  it('refuses a testnet address, a tpub, an xprv, an xpub on ethereum and no address at all, writing nothing', async () => {
    const cases: [add.AddOptions, string, string, RegExp][] = [
      [{ chain: 'bitcoin', address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' }, 'INVALID_FIELD', 'address', /testnet address/],
      [{ chain: 'bitcoin', address: `0x${'1'.repeat(40)}` }, 'INVALID_FIELD', 'address', /not a Bitcoin mainnet address/],
      [
        { chain: 'bitcoin', xpub: 'tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp' },
        'INVALID_FIELD',
        'xpub',
        /testnet key/,
      ],
      [
        { chain: 'bitcoin', xpub: 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi' },
        'INVALID_FIELD',
        'xpub',
        /private key/,
      ],
      [{ chain: 'bitcoin', xpub: `${ZPUB.slice(0, -1)}t` }, 'INVALID_FIELD', 'xpub', /bad checksum/],
      [{ chain: 'ethereum', xpub: ZPUB }, 'INVALID_FIELD', 'xpub', /only|bitcoin/],
      [{ chain: 'bitcoin', xpub: ZPUB, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, 'INVALID_FIELD', 'xpub', /not both/],
      // The CLI says so before any request (docs/architecture.md, "Which error comes first"); the API's answer is MISSING_REQUIRED_FIELD (engine/wallets.ts).
      [{ chain: 'bitcoin' }, 'USAGE_ERROR', 'address', /--xpub/],
    ];
    for (const [opts, code, field, why] of cases) {
      const r = await adding(opts);
      expect(r.exitCode, JSON.stringify(opts)).not.toBe(0);
      const { error } = JSON.parse(r.stderr);
      expect(error, JSON.stringify(opts)).toMatchObject({ code, field });
      expect(error.message).toMatch(why);
    }
    const l = await runInProcess('txa wallet list', list.run, { chain: 'bitcoin' }, { db, workspace, json: true });
    expect(JSON.parse(l.stdout).data).toHaveLength(2);
  });
});

describe('txa wallet sync of a bitcoin wallet', () => {
  it('reads TXA_ESPLORA_URL and prints the sync in the API body (source esplora), the rows in tx list', async () => {
    const server = await esploraReplay([
      tx('cli', 820_001, [['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 150_000]], [['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 123_456]]),
    ]);
    const before = { url: process.env.TXA_ESPLORA_URL, rps: process.env.TXA_SYNC_RPS };
    process.env.TXA_ESPLORA_URL = server.url;
    process.env.TXA_SYNC_RPS = '1000';
    try {
      const added = await adding({ chain: 'bitcoin', address: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy' });
      const id = JSON.parse(added.stdout).data.id;
      const r = await runInProcess('txa wallet sync', sync.run, { ids: [id] }, { db, workspace, json: true });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout).data).toEqual([
        expect.objectContaining({ wallet_id: id, chain: 'bitcoin', source: 'esplora', new_transactions: 1, duplicates: 0, requests: 1, last_block: 820_001 }),
      ]);
      const l = await runInProcess('txa wallet list', list.run, { chain: 'bitcoin' }, { db, workspace, json: true });
      expect(JSON.parse(l.stdout).data.find((w: { id: string }) => w.id === id)).toMatchObject({ balance: { native: '0.00123456' }, transaction_count: 1 });
    } finally {
      process.env.TXA_ESPLORA_URL = before.url;
      process.env.TXA_SYNC_RPS = before.rps;
      if (before.url === undefined) delete process.env.TXA_ESPLORA_URL;
      if (before.rps === undefined) delete process.env.TXA_SYNC_RPS;
      await server.close();
    }
  });
});
