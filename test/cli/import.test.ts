/** `txa import` as a user runs it: the built binary on a throw-away ledger. */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const SAMPLES = resolve(import.meta.dirname, '../../../shared/samples/explorer-csv');
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');

let sb: Sandbox;
let wallet: string;

beforeAll(async () => {
  sb = sandbox();
  const ws = (await sb.json(['workspace', 'create', 'Imports'])).data.id as string;
  sb.env.TXA_WORKSPACE = ws;
  wallet = (await sb.json(['wallet', 'add', '--address', '0xaa098e5c9b002f815d7c9756bcfce0fc18b3f362', '--chain', 'arbitrum'])).data.id;
});

describe('txa import', () => {
  it('imports an explorer sample into --wallet and prints the counts as a record', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'arbiscan_normal_txns_raw.csv'), '--wallet', wallet]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['format\tetherscan', 'imported\t9', 'duplicates skipped\t0', 'rows skipped\t0']);
    const list = await sb.json(['tx', 'list', '--wallet-id', wallet]);
    expect(list.pagination.total).toBe(9);
  });

  it('--json prints the ImportSummary; a second run only finds duplicates', async () => {
    const body = await sb.json(['import', join(SAMPLES, 'arbiscan_normal_txns_raw.csv'), '--wallet', wallet]);
    expect(body).toEqual({
      success: true,
      data: {
        format: 'etherscan', imported: 0, duplicates: 9, skipped: 0, dry_run: false, wallets: [{ id: wallet, label: expect.any(String), imported: 0 }],
        revalued: 0, transfers_matched: 0,
      },
    });
  });

  it('--dry-run counts without writing', async () => {
    const file = join(sb.dir, 'one.json');
    writeFileSync(file, JSON.stringify([{ tx_hash: '0xdry', chain: 'arbitrum', token: { symbol: 'ETH', address: null, decimals: 18 }, amount: '1', direction: 'inflow', timestamp: '2024-01-01T00:00:00Z' }]));
    const body = await sb.json(['import', file, '--wallet', wallet, '--dry-run']);
    expect(body.data).toMatchObject({ format: 'json', imported: 1, dry_run: true });
    expect((await sb.json(['tx', 'list', '--wallet-id', wallet])).pagination.total).toBe(9);
  });

  it('a bad file: the error line, one stderr line per bad row, exit 1, nothing imported', async () => {
    const r = await sb.txa(['import', join(FIXTURES, 'bad-rows.ndjson')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      'error: IMPORT_FAILED: 2 rows are invalid; nothing was imported',
      "  line 3, amount: not a number: 'two'",
      "  line 4, direction: must be one of inflow, outflow, got 'sideways'",
    ]);
    const wallets = await sb.json(['wallet', 'list']);
    expect(wallets.data).toHaveLength(1);
  });

  it('lists the first 20 bad rows then how many more', async () => {
    const file = join(sb.dir, 'many-bad.ndjson');
    writeFileSync(file, Array.from({ length: 25 }, (_, i) => JSON.stringify({ tx_hash: `0x${i}`, amount: 'x' })).join('\n'));
    const r = await sb.txa(['import', file, '--wallet', wallet]);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[21]).toBe('  … and 5 more');
  });

  it('with --json, a failure is the API error body with every bad row', async () => {
    const r = await sb.txa(['import', join(FIXTURES, 'bad-rows.ndjson'), '--json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      success: false,
      error: {
        code: 'IMPORT_FAILED',
        message: '2 rows are invalid; nothing was imported',
        errors: [
          { line: 3, field: 'amount', reason: "not a number: 'two'" },
          { line: 4, field: 'direction', reason: "must be one of inflow, outflow, got 'sideways'" },
        ],
      },
    });
  });

  it('refuses a file missing columns with the column list as the field', async () => {
    // A token-tracker layout (the token in the name) without its From and To columns.
    const file = join(sb.dir, 'transfers-0x7961ade0a767c0e5b67dd1a1f78ba44f727642ed.csv');
    writeFileSync(file, `Txhash,Blockno,UnixTimestamp,Quantity\n0x${'1'.repeat(64)},1,1637035653,5\n`);
    const r = await sb.txa(['import', file, '--wallet', wallet]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: IMPORT_FAILED (From,To): the file lacks columns a transaction needs: From, To');
  });

  it('an explorer file without --wallet is a usage error (exit 2)', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'etherscan_normal_txns.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: USAGE_ERROR (wallet): etherscan files name no wallet: pass --wallet ID');
  });

  it('an unknown --format is a usage error (exit 2)', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'etherscan_normal_txns.csv'), '--format', 'xls']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--format must be one of auto, json, ndjson, csv, etherscan, koinly, rotki');
  });

  it('prints why rows were skipped on stderr', async () => {
    const w = (await sb.json(['wallet', 'add', '--address', '0x1133ea7af70876e64665ecd07c0a0476d09465a1', '--chain', 'arbitrum'])).data.id;
    const r = await sb.txa(['import', join(SAMPLES, 'arbiscan_normal_txns_excel_resaved.csv'), '--wallet', w]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('rows skipped\t3');
    expect(r.stderr).toContain('3 rows were skipped:\n  line 75: failed transaction');
  });
});

/** A sandbox with a workspace and one wallet at `address` on `chain`. */
async function walletSandbox(address: string, chain: string): Promise<{ sb: Sandbox; wallet: string }> {
  const sb = sandbox();
  sb.env.TXA_WORKSPACE = (await sb.json(['workspace', 'create', 'Imports'])).data.id;
  return { sb, wallet: (await sb.json(['wallet', 'add', '--address', address, '--chain', chain])).data.id };
}

interface Listed {
  tx_hash: string;
  timestamp: string;
  amount: string;
  fiat_value: number | null;
  direction: string;
  type: string;
  token: { symbol: string; address: string | null };
}

const listAll = async (sb: Sandbox, wallet: string): Promise<Listed[]> => (await sb.json(['tx', 'list', '--wallet-id', wallet, '--all'])).data;

/** [type, direction, amount, fiat_value] of the rows at one block time, fees first. */
const at = (list: Listed[], iso: string) =>
  list
    .filter((t) => t.timestamp === iso)
    .map((t) => [t.type, t.direction, t.amount, t.fiat_value])
    .sort((a, b) => String(a).localeCompare(String(b)));

describe('txa import: a Polygonscan export without Txhash, From and To (README 1.6)', () => {
  const FILE = join(SAMPLES, 'polygonscan_normal_txns_column_subset.csv');
  let sb: Sandbox;
  let wallet: string;
  let list: Listed[];

  beforeAll(async () => {
    ({ sb, wallet } = await walletSandbox('0x003dc32fe920a4aaeed12dc87e145f030aa753f3', 'polygon'));
    const body = await sb.json(['import', FILE, '--wallet', wallet]);
    // 1,800 rows: 862 with a Value_IN (inflows, no fee); 938 with no value (contract calls the
    // wallet sent: a zero outflow and a fee each). Value_OUT is 0 everywhere.
    expect(body.data).toMatchObject({ format: 'etherscan', imported: 862 + 938 * 2, duplicates: 0, skipped: 0 });
    list = await listAll(sb, wallet);
  });

  it('reads the direction from the value columns and charges the fee only on the rows the wallet sent', () => {
    const count = (f: (t: Listed) => boolean) => list.filter(f).length;
    expect(list).toHaveLength(2738);
    expect(count((t) => t.direction === 'inflow' && t.type === 'transfer')).toBe(862);
    expect(count((t) => t.direction === 'outflow' && t.type === 'contract_call' && t.amount === '0')).toBe(938);
    expect(count((t) => t.direction === 'outflow' && t.type === 'fee')).toBe(938);
    expect(count((t) => t.token.symbol === 'POL' && t.token.address === null)).toBe(2738);
    // The last 72 rows (2024-04-16) have no Historical $Price: they and their 44 fees are unpriced
    // (TxnFee(USD) is at the export day's price, never used).
    expect(count((t) => t.fiat_value === null)).toBe(72 + 44);
    expect(count((t) => t.fiat_value === null && t.type === 'fee')).toBe(44);
  });

  it('hand-checked rows: amounts exact, fiat at the historical price', () => {
    // Line 2: no value, so the wallet's call: 0 MATIC and a fee of 0.3951321679133885 MATIC at the day's
    // $0.83 = $0.3280 (not TxnFee(USD) $0.2778…, taken at the export day's price).
    expect(at(list, '2024-02-08T17:38:42Z')).toEqual([
      ['contract_call', 'outflow', '0', 0],
      ['fee', 'outflow', '0.3951321679133885', 0.33],
    ]);
    // Line 5: 101.33180390911454 MATIC in × $0.89 = 90.1853054791… ; no fee (the sender paid it).
    expect(at(list, '2024-02-14T20:26:16Z')).toEqual([['transfer', 'inflow', '101.33180390911454', 90.19]]);
    // Line 56: 2.0837120886e-06 in pandas' scientific notation.
    expect(at(list, '2024-02-21T18:10:45Z')).toEqual([['transfer', 'inflow', '0.0000020837120886', 0]]);
    // Line 1801, the newest day: no price, so no value, the fee's neither.
    expect(at(list, '2024-04-16T23:51:52Z')).toEqual([
      ['contract_call', 'outflow', '0', null],
      ['fee', 'outflow', '0.2082579230352195', null],
    ]);
  });

  it('gives every row its own synthetic hash, identical rows (lines 1510, 1511) included', () => {
    const block = list.filter((t) => t.timestamp === '2024-04-09T14:54:27Z');
    expect(block.map((t) => t.amount)).toEqual(['0.00001', '0.00001', '0.00001']);
    expect(new Set(block.map((t) => t.tx_hash)).size).toBe(3);
    for (const t of block) expect(t.tx_hash).toMatch(/^etherscan:[0-9a-f]{40}$/);
    // A fee shares its row's hash: 1,800 rows, 1,800 hashes.
    expect(new Set(list.map((t) => t.tx_hash)).size).toBe(1800);
  });

  it('the balance is exact: Σ Value_IN − Σ fees of sent rows', async () => {
    const w = (await sb.json(['wallet', 'list'])).data[0];
    // 228767.478489912475896 in − 74.6804360739093435 of fees.
    expect(w.balance.native).toBe('228692.7980538385665525');
  });

  it('a second import adds nothing', async () => {
    const body = await sb.json(['import', FILE, '--wallet', wallet]);
    expect(body.data).toMatchObject({ imported: 0, duplicates: 2738 });
    expect((await sb.json(['tx', 'list', '--wallet-id', wallet])).pagination.total).toBe(2738);
  });
});

describe('txa import: a BscScan token-tracker export whose name lost the token (README 1.5)', () => {
  const FILE = join(SAMPLES, 'bscscan_token_transfers_excel_resaved.csv');
  const QUIDD = '0x7961Ade0a767c0E5B67Dd1a1F78ba44F727642Ed';
  let sb: Sandbox;
  let wallet: string;

  beforeAll(async () => {
    ({ sb, wallet } = await walletSandbox('0x72571d815dd31fbde52be0b9d7ffc8344aede616', 'bsc'));
  });

  it('without --token-address: refused, and the error says to pass it', async () => {
    const r = await sb.txa(['import', FILE, '--wallet', wallet]);
    expect(r.exitCode).toBe(1);
    const [error, hint] = r.stderr.split('\n');
    expect(error).toMatch(/^error: IMPORT_FAILED \(ContractAddress\): the file lacks column a transaction needs: ContractAddress; .*pass --token-address 0x…$/);
    expect(hint).toContain('--token-address');
    const json = await sb.txa(['import', FILE, '--wallet', wallet, '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'IMPORT_FAILED', field: 'ContractAddress', message: expect.stringContaining('--token-address') });
  });

  it('a malformed --token-address, or one on another layout, is a usage error', async () => {
    const bad = await sb.txa(['import', FILE, '--wallet', wallet, '--token-address', '0x7961']);
    expect([bad.exitCode, bad.stderr]).toEqual([2, "error: USAGE_ERROR (token-address): --token-address must be a 0x address of 40 hex digits, got '0x7961'"]);
    const erc20 = await sb.txa(['import', join(SAMPLES, 'etherscan_erc20_token_txns.csv'), '--wallet', wallet, '--token-address', QUIDD]);
    expect(erc20.exitCode).toBe(2);
    expect(erc20.stderr).toContain('--token-address is only for token-tracker exports');
  });

  it("with --token-address: the wallet's 8 transfers of the token, 872 rows of other holders skipped", async () => {
    const r = await sb.txa(['import', FILE, '--wallet', wallet, '--token-address', QUIDD]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['format\tetherscan', 'imported\t8', 'duplicates skipped\t0', 'rows skipped\t872']);
    const list = await listAll(sb, wallet);
    expect(list.map((t) => [t.timestamp, t.type, t.direction, t.amount])).toEqual([
      ['2021-11-18T15:26:35Z', 'transfer', 'outflow', '138967.8'], // line 660, "138,967.80"
      ['2021-11-18T14:57:21Z', 'transfer', 'outflow', '322581'],
      ['2021-11-18T14:32:59Z', 'transfer', 'outflow', '322581'],
      ['2021-11-18T04:17:55Z', 'transfer', 'outflow', '1999000'],
      ['2021-11-18T04:12:48Z', 'transfer', 'outflow', '1000'],
      ['2021-11-17T07:34:21Z', 'mint', 'inflow', '6000000'], // from the zero address, "6,000,000"
      ['2021-11-16T04:13:34Z', 'burn', 'outflow', '1000'], // to the zero address
      ['2021-11-16T04:07:33Z', 'mint', 'inflow', '1000'],
    ]);
    expect(new Set(list.map((t) => `${t.token.symbol} ${t.token.address}`))).toEqual(new Set(['0x7961…42ed 0x7961ade0a767c0e5b67dd1a1f78ba44f727642ed']));
    // 6,001,000 in − 2,785,129.8 out.
    expect((await sb.json(['wallet', 'list'])).data[0].balance.tokens).toEqual([
      { symbol: '0x7961…42ed', address: '0x7961ade0a767c0e5b67dd1a1f78ba44f727642ed', balance: '3215870.2', fiat_value: null },
    ]);
  });

  it('a second import adds nothing', async () => {
    const body = await sb.json(['import', FILE, '--wallet', wallet, '--token-address', QUIDD.toLowerCase()]);
    expect(body.data).toMatchObject({ imported: 0, duplicates: 8, skipped: 872 });
  });
});

describe('txa import: JSON export round trip', () => {
  it('keeps notes byte for byte, leading and trailing whitespace included', async () => {
    const { sb, wallet } = await walletSandbox('0xaa098e5c9b002f815d7c9756bcfce0fc18b3f362', 'arbitrum');
    await sb.json(['import', join(SAMPLES, 'arbiscan_normal_txns_raw.csv'), '--wallet', wallet]);
    const ids: string[] = (await sb.json(['tx', 'list', '--sort', 'timestamp_asc'])).data.map((t: { id: string }) => t.id);
    const notes = ['\tx', '  both ends  ', 'line\n', '\u3000全角'];
    for (const [i, n] of notes.entries()) await sb.json(['tx', 'update', ids[i]!, '--notes', n]);
    const out = join(sb.dir, 'export.json');
    expect((await sb.txa(['export', 'create', '--format', 'json', '--out', out])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).transactions.map((t: { notes: string | null }) => t.notes).filter(Boolean).sort()).toEqual([...notes].sort());

    const other = (await sb.json(['workspace', 'create', 'Copy'])).data.id as string;
    const env = { TXA_WORKSPACE: other };
    expect((await sb.json(['import', out], { env })).data).toMatchObject({ format: 'json', imported: 9 });
    const copied = (await sb.json(['tx', 'list', '--sort', 'timestamp_asc'], { env })).data.map((t: { notes: string | null }) => t.notes);
    expect(copied).toEqual([...notes, null, null, null, null, null]);
  });
});
