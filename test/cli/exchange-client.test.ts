/**
 * An exchange account through the built CLI, as a user runs it (docs/storage.md "Exchange
 * wallets"): `txa wallet add --exchange`, `txa import --wallet-id` of Kraken's ledgers, the wallet
 * list at 80 columns, `txa check`, and the journals: hledger's balance of the account equals the
 * closing balances of Kraken's own `balance` column, and bean-check accepts the beancount file.
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { BIN, sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';

const hasTool = async (bin: string) => (await execa(bin, ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const HLEDGER = await hasTool('hledger');
const BEANCOUNT = await hasTool('bean-check');

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Client Co', '--tier', 'pro'])).data.id;
const kraken = (await s.json(['wallet', 'add', '--exchange', 'kraken', '--label', 'Kraken'])).data;
const main = (await s.json(['wallet', 'add', '--address', `0x${'1'.repeat(40)}`, '--chain', 'ethereum', '--label', 'Main'])).data;
// Kraken's ZEUR sale needs the day's rate (EUR per USD).
const rates = join(s.dir, 'rates.csv');
await execa('sh', ['-c', `printf 'date,currency,rate\\n2023-02-01,EUR,0.95\\n' > ${rates}`]);
await s.json(['rates', 'import', rates]);
const imported = await s.json(['import', join(FIXTURES, 'kraken-ledgers.csv'), '--wallet-id', kraken.id]);

describe('an exchange account through the CLI', () => {
  test('wallet add --exchange and import --wallet-id', () => {
    expect(kraken).toMatchObject({ kind: 'exchange', exchange: 'kraken', address: null, chain: null });
    expect(imported.data).toMatchObject({ format: 'kraken', imported: 10, skipped: 4 });
  });

  test('import prints why rows were skipped: fiat-only rows, moves within the account, a pending entry', async () => {
    const again = await s.txa(['import', join(FIXTURES, 'kraken-ledgers.csv'), '--wallet-id', kraken.id]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('fiat-only row (deposit of USD): no token moved');
    expect(again.stderr).toContain('transfer/spottostaking: moves within the account');
    expect(again.stderr).toContain('no txid yet');
  });

  test('wallet list in an 80-column terminal shows both kinds, each line within 80 characters', async () => {
    const run = await inTerminal(`${BIN} wallet list`, { env: s.env, cwd: s.dir, until: /exit=\d+/, width: 80, joinWrapped: true });
    expect(run.screen).toContain('exit=0');
    // CHAIN stays (it says what NATIVE is a balance of) and names the exchange; the address hides first.
    expect(run.screen).toMatch(/ {2}kraken {2}/);
    expect(run.screen).toMatch(/ {2}Main {2,}ethereum {2}/);
    for (const line of run.screen.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  test('txa check reads the exchange rows (no own-transfer or chain finding made of them)', async () => {
    const r = await s.txa(['check', '--json']);
    const body = JSON.parse(r.stdout || r.stderr);
    expect(body.success === true || body.error?.code === 'LEDGER_ERROR', r.stdout + r.stderr).toBe(true);
  });

  test.skipIf(!HLEDGER)("hledger's balance of the Kraken account is Kraken's own closing balances", async () => {
    const file = join(s.dir, 'client.journal');
    const r = await s.txa(['export', 'create', '--format', 'ledger', '--out', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await execa('hledger', ['-f', file, 'check', '--strict'], { reject: false })).stderr).toBe('');
    const bal = await execa('hledger', ['-f', file, 'bal', '--flat', '-E', '-O', 'csv', '^Assets:Kraken']);
    const rows = (parse(bal.stdout) as string[][]).slice(1).filter((x) => x[0] !== 'total');
    // The file's last balance per asset: XETH 0.0465 + ETH2.S 0.2004 (ETH staked at Kraken is ETH) = 0.2469;
    // XXBT 0.03493; USDC 98.5. ZUSD and ZEUR are fiat, no token of the ledger.
    expect(Object.fromEntries(rows.map(([account, amount]) => [account, amount!.replace(/\.?0+ /, ' ')]))).toEqual({
      'Assets:Kraken:BTC': '0.03493 BTC',
      'Assets:Kraken:ETH': '0.2469 ETH',
      'Assets:Kraken:USDC': '98.5 USDC',
    });
    expect(main.id).toMatch(/^wal_/);
  });

  test.skipIf(!BEANCOUNT)('bean-check accepts the beancount journal with the exchange account', async () => {
    const file = join(s.dir, 'client.beancount');
    const r = await s.txa(['export', 'create', '--format', 'beancount', '--out', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    const checked = await execa('bean-check', [file], { reject: false });
    expect([checked.exitCode, checked.stderr]).toEqual([0, '']);
  });

  test('the PDF reports name the exchange rows `exchange` where a chain goes', async () => {
    for (const type of ['summary', 'detailed', 'audit', 'tax']) {
      const file = join(s.dir, `${type}.pdf`);
      const r = await s.txa(['export', 'create', '--format', 'pdf', '--report-type', type, '--out', file]);
      expect(r.exitCode, r.stderr).toBe(0);
      const text = (await execa('pdftotext', ['-layout', file, '-'])).stdout;
      if (type !== 'summary') expect(text, type).toContain('Kraken');
      expect(text, type).not.toContain('null');
      if (type !== 'tax') expect(text, type).toContain('exchange');
    }
  });

  test('JSON and CSV exports: an exchange row has chain and explorer_url null (an empty chain cell)', async () => {
    const json = join(s.dir, 'rows.json');
    expect((await s.txa(['export', 'create', '--format', 'json', '--out', json])).exitCode).toBe(0);
    const rows = JSON.parse(await (await import('node:fs/promises')).readFile(json, 'utf8')).transactions;
    expect(rows.length).toBe(10);
    for (const t of rows) expect([t.wallet_label, t.chain, t.explorer_url]).toEqual(['Kraken', null, null]);
    const csv = join(s.dir, 'rows.csv');
    expect((await s.txa(['export', 'create', '--format', 'csv', '--columns', 'date,wallet_label,chain,token,amount', '--out', csv])).exitCode).toBe(0);
    const table = parse(await (await import('node:fs/promises')).readFile(csv, 'utf8')) as string[][];
    expect(table[1]).toEqual(['2023-01-03', 'Kraken', '', 'ETH', '1']);
  });

  test('an exchange file read from a pipe (/dev/stdin) loses none of its bytes to the XLSX check', async () => {
    const other = (await s.json(['wallet', 'add', '--exchange', 'other', '--label', 'OTC'])).data.id;
    const r = await execa('sh', ['-c', `cat ${join(FIXTURES, 'exchange-csv.csv')} | ${BIN} import /dev/stdin --wallet-id ${other} --json`], {
      env: s.env,
      cwd: s.dir,
      reject: false,
    });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).data).toMatchObject({ format: 'exchange-csv', imported: 10 });
  });
});
