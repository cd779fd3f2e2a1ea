/** `txa import` as a user runs it: the built binary on a throw-away ledger. */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { describeSamples, sample } from '../helpers/samples.js';

/** Synthetic files in the explorers' formats (fixtures/import/README.md); the real ones run in addition when present. */
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);
/** The contract whose transactions fixtures/import/arbiscan-raw.csv holds. */
const ARB_CONTRACT = '0xedeb0682b17809b01d35fc285f08449811cff697';

let sb: Sandbox;
let wallet: string;

beforeAll(async () => {
  sb = sandbox();
  const ws = (await sb.json(['workspace', 'create', 'Imports'])).data.id as string;
  sb.env.TXA_WORKSPACE = ws;
  wallet = (await sb.json(['wallet', 'add', '--address', ARB_CONTRACT, '--chain', 'arbitrum'])).data.id;
});

describe('txa import', () => {
  it('imports an explorer export into --wallet and prints the counts as a record', async () => {
    const r = await sb.txa(['import', fixture('arbiscan-raw.csv'), '--wallet', wallet]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['format\tetherscan', 'imported\t5', 'duplicates skipped\t0', 'rows skipped\t0']);
    const list = await sb.json(['tx', 'list', '--wallet-id', wallet]);
    expect(list.pagination.total).toBe(5);
  });

  it('--json prints the ImportSummary; a second run only finds duplicates', async () => {
    const body = await sb.json(['import', fixture('arbiscan-raw.csv'), '--wallet', wallet]);
    expect(body).toEqual({
      success: true,
      data: {
        format: 'etherscan',
        imported: 0,
        duplicates: 5,
        skipped: 0,
        dry_run: false,
        spam: 0,
        wallets: [{ id: wallet, label: expect.any(String), imported: 0 }],
        revalued: 0,
        transfers_matched: 0,
      },
    });
  });

  it('--dry-run counts without writing', async () => {
    const file = join(sb.dir, 'one.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          tx_hash: '0xdry',
          chain: 'arbitrum',
          token: { symbol: 'ETH', address: null, decimals: 18 },
          amount: '1',
          direction: 'inflow',
          timestamp: '2024-01-01T00:00:00Z',
        },
      ]),
    );
    const body = await sb.json(['import', file, '--wallet', wallet, '--dry-run']);
    expect(body.data).toMatchObject({ format: 'json', imported: 1, dry_run: true });
    expect((await sb.json(['tx', 'list', '--wallet-id', wallet])).pagination.total).toBe(5);
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
        error_count: 2,
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
    const r = await sb.txa(['import', fixture('etherscan-normal.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: USAGE_ERROR (wallet): etherscan files name no wallet: pass --wallet ID');
  });

  it('an unknown --format is a usage error (exit 2)', async () => {
    const r = await sb.txa(['import', fixture('etherscan-normal.csv'), '--format', 'xls']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--format must be one of auto, json, ndjson, csv, etherscan, koinly, rotki');
  });

  it('prints why rows were skipped on stderr', async () => {
    const w = (await sb.json(['wallet', 'add', '--address', '0xa77cc49a16ac168392dec78f79ca1b758666b919', '--chain', 'arbitrum'])).data.id;
    const r = await sb.txa(['import', fixture('arbiscan-excel.csv'), '--wallet', w]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('rows skipped\t2');
    expect(r.stderr).toContain('2 rows were skipped:\n  line 5: failed transaction');
    expect(r.stderr).toContain('\n  line 7: failed transaction');
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

/** A Polygonscan normal-transactions export stripped of Txhash, From, To, Status and Method, and a hand count of it. */
interface SubsetCase {
  file: string;
  /** Rows with a Value_IN: inflows, no fee (the sender paid it). */
  inflows: number;
  /** Rows with no value: calls the wallet sent, a zero outflow and a fee each. */
  calls: number;
  /** Rows of the newest day, whose Historical $Price is still empty. */
  unpriced: number;
  /** Fees of those rows (the wallet's calls that day), unpriced too. */
  unpricedFees: number;
  /** Hand-checked block times: [type, direction, amount, fiat_value] of their rows, fees after calls. */
  checked: Record<string, unknown[][]>;
  /** A block with identical rows, and their amounts. */
  identical: { at: string; amounts: string[] };
  /** Σ Value_IN − Σ fees of the rows the wallet sent. */
  balance: string;
}

function polygonSubset(c: SubsetCase): void {
  let sb: Sandbox;
  let wallet: string;
  let list: Listed[];
  const total = c.inflows + 2 * c.calls;

  beforeAll(async () => {
    ({ sb, wallet } = await walletSandbox('0xd3615f34ba96a642fe0ad91902c6f426b0cc9397', 'polygon'));
    const body = await sb.json(['import', c.file, '--wallet', wallet]);
    expect(body.data).toMatchObject({ format: 'etherscan', imported: total, duplicates: 0, skipped: 0 });
    list = await listAll(sb, wallet);
  });

  it('reads the direction from the value columns and charges the fee only on the rows the wallet sent', () => {
    const count = (f: (t: Listed) => boolean) => list.filter(f).length;
    expect(list).toHaveLength(total);
    expect(count((t) => t.direction === 'inflow' && t.type === 'transfer')).toBe(c.inflows);
    expect(count((t) => t.direction === 'outflow' && t.type === 'contract_call' && t.amount === '0')).toBe(c.calls);
    expect(count((t) => t.direction === 'outflow' && t.type === 'fee')).toBe(c.calls);
    expect(count((t) => t.token.symbol === 'POL' && t.token.address === null)).toBe(total);
    // The newest day's rows have no Historical $Price: they and their fees are unpriced
    // (TxnFee(USD) is at the export day's price, never used).
    expect(count((t) => t.fiat_value === null)).toBe(c.unpriced + c.unpricedFees);
    expect(count((t) => t.fiat_value === null && t.type === 'fee')).toBe(c.unpricedFees);
  });

  it('hand-checked rows: amounts exact, fiat at the historical price', () => {
    for (const [iso, rows] of Object.entries(c.checked)) expect(at(list, iso), iso).toEqual(rows);
  });

  it('gives every row its own synthetic hash, identical rows included', () => {
    const block = list.filter((t) => t.timestamp === c.identical.at);
    expect(block.map((t) => t.amount)).toEqual(c.identical.amounts);
    expect(new Set(block.map((t) => t.tx_hash)).size).toBe(c.identical.amounts.length);
    for (const t of block) expect(t.tx_hash).toMatch(/^etherscan:[0-9a-f]{40}$/);
    // A fee shares its row's hash: one hash per row.
    expect(new Set(list.map((t) => t.tx_hash)).size).toBe(c.inflows + c.calls);
  });

  it('the balance is exact: Σ Value_IN − Σ fees of sent rows', async () => {
    const w = (await sb.json(['wallet', 'list'])).data[0];
    expect(w.balance.native).toBe(c.balance);
  });

  it('a second import adds nothing', async () => {
    const body = await sb.json(['import', c.file, '--wallet', wallet]);
    expect(body.data).toMatchObject({ imported: 0, duplicates: total });
    expect((await sb.json(['tx', 'list', '--wallet-id', wallet])).pagination.total).toBe(total);
  });
}

describe('txa import: a Polygonscan export without Txhash, From and To (polygonscan-subset.csv)', () => {
  polygonSubset({
    file: fixture('polygonscan-subset.csv'),
    inflows: 7,
    calls: 2, // lines 2 and 10
    unpriced: 2, // lines 9 and 10 (2024-04-16)
    unpricedFees: 1, // line 10's
    checked: {
      // Line 2: "0.0" in, so the wallet's call: 0 MATIC and a fee of 0.4172630581264907 MATIC × the day's $0.83 = $0.3463….
      '2024-02-08T22:06:41Z': [
        ['contract_call', 'outflow', '0', 0],
        ['fee', 'outflow', '0.4172630581264907', 0.35],
      ],
      // Line 4: 87.51204918273645 MATIC in × $0.89 = 77.8857237726…; no fee (the sender paid it).
      '2024-02-14T22:33:23Z': [['transfer', 'inflow', '87.51204918273645', 77.89]],
      // Line 5: 3.1415926535e-06 in pandas' scientific notation.
      '2024-02-20T20:13:24Z': [['transfer', 'inflow', '0.0000031415926535', 0]],
      // Line 10, the newest day: no price, so no value, the fee's neither (not its TxnFee(USD) 0.1581…).
      '2024-04-16T23:26:48Z': [
        ['contract_call', 'outflow', '0', null],
        ['fee', 'outflow', '0.2196041830559214', null],
      ],
    },
    identical: { at: '2024-04-09T16:26:46Z', amounts: ['0.00001', '0.00001', '0.00001'] }, // lines 6 and 7 identical, 8 another fee
    // 4 + 87.51204918273645 + 0.0000031415926535 + 3 × 0.00001 + 8 = 99.5120823243291035 in;
    // 0.4172630581264907 + 0.2196041830559214 = 0.6368672411824121 of fees.
    balance: '98.8752150831466914',
  });
});

describeSamples('txa import: a Polygonscan export without Txhash, From and To (README 1.6)', () => {
  polygonSubset({
    file: sample('polygonscan_normal_txns_column_subset.csv'),
    // 1,800 rows: 862 with a Value_IN, 938 with no value. Value_OUT is 0 everywhere.
    inflows: 862,
    calls: 938,
    unpriced: 72, // the last 72 rows (2024-04-16)
    unpricedFees: 44,
    checked: {
      // Line 2: no value, so the wallet's call: 0 MATIC and a fee of 0.3951321679133885 MATIC at the day's
      // $0.83 = $0.3280 (not TxnFee(USD) $0.2778…, taken at the export day's price).
      '2024-02-08T17:38:42Z': [
        ['contract_call', 'outflow', '0', 0],
        ['fee', 'outflow', '0.3951321679133885', 0.33],
      ],
      // Line 5: 101.33180390911454 MATIC in × $0.89 = 90.1853054791… ; no fee (the sender paid it).
      '2024-02-14T20:26:16Z': [['transfer', 'inflow', '101.33180390911454', 90.19]],
      // Line 56: 2.0837120886e-06 in pandas' scientific notation.
      '2024-02-21T18:10:45Z': [['transfer', 'inflow', '0.0000020837120886', 0]],
      // Line 1801, the newest day: no price, so no value, the fee's neither.
      '2024-04-16T23:51:52Z': [
        ['contract_call', 'outflow', '0', null],
        ['fee', 'outflow', '0.2082579230352195', null],
      ],
    },
    identical: { at: '2024-04-09T14:54:27Z', amounts: ['0.00001', '0.00001', '0.00001'] }, // lines 1510, 1511 identical
    // 228767.478489912475896 in − 74.6804360739093435 of fees.
    balance: '228692.7980538385665525',
  });
});

/** A BscScan token-tracker export (one token, every holder) whose file name lost the token, and a hand count of it. */
interface TrackerCase {
  file: string;
  wallet: string;
  /** The token's contract address, as the explorer shows it (mixed case). */
  token: string;
  /** An address-page token export, whose ContractAddress column names its tokens. */
  addressExport: string;
  skipped: number;
  /** [timestamp, type, direction, amount] of the wallet's transfers, in time order, inflows first. */
  transfers: string[][];
  balance: string;
}

function tokenTracker(c: TrackerCase): void {
  let sb: Sandbox;
  let wallet: string;
  const token = c.token.toLowerCase();
  const symbol = `${token.slice(0, 6)}…${token.slice(-4)}`;

  beforeAll(async () => {
    ({ sb, wallet } = await walletSandbox(c.wallet, 'bsc'));
  });

  it('without --token-address: refused, and the error says to pass it', async () => {
    const r = await sb.txa(['import', c.file, '--wallet', wallet]);
    expect(r.exitCode).toBe(1);
    const [error, hint] = r.stderr.split('\n');
    expect(error).toMatch(/^error: IMPORT_FAILED \(ContractAddress\): the file lacks column a transaction needs: ContractAddress; .*pass --token-address 0x…$/);
    expect(hint).toContain('--token-address');
    const json = await sb.txa(['import', c.file, '--wallet', wallet, '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'IMPORT_FAILED',
      field: 'ContractAddress',
      message: expect.stringContaining('--token-address'),
    });
  });

  it('a malformed --token-address, or one on another layout, is a usage error', async () => {
    const bad = await sb.txa(['import', c.file, '--wallet', wallet, '--token-address', '0x7961']);
    expect([bad.exitCode, bad.stderr]).toEqual([2, "error: USAGE_ERROR (token-address): --token-address must be a 0x address of 40 hex digits, got '0x7961'"]);
    const erc20 = await sb.txa(['import', c.addressExport, '--wallet', wallet, '--token-address', c.token]);
    expect(erc20.exitCode).toBe(2);
    expect(erc20.stderr).toContain('--token-address is only for token-tracker exports');
  });

  it(`with --token-address: the wallet's ${c.transfers.length} transfers of the token, ${c.skipped} rows of other holders skipped`, async () => {
    const r = await sb.txa(['import', c.file, '--wallet', wallet, '--token-address', c.token]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      'format\tetherscan',
      `imported\t${c.transfers.length}`,
      'duplicates skipped\t0',
      `rows skipped\t${c.skipped}`,
    ]);
    const list = (await listAll(sb, wallet)).map((t) => [t.timestamp, t.type, t.direction, t.amount]);
    expect(list.sort((a, b) => a[0]!.localeCompare(b[0]!) || a[2]!.localeCompare(b[2]!))).toEqual(c.transfers);
    expect(new Set((await listAll(sb, wallet)).map((t) => `${t.token.symbol} ${t.token.address}`))).toEqual(new Set([`${symbol} ${token}`]));
    expect((await sb.json(['wallet', 'list'])).data[0].balance.tokens).toEqual([{ symbol, address: token, balance: c.balance, fiat_value: null }]);
  });

  it('a second import adds nothing', async () => {
    const body = await sb.json(['import', c.file, '--wallet', wallet, '--token-address', token]);
    expect(body.data).toMatchObject({ imported: 0, duplicates: c.transfers.length, skipped: c.skipped });
  });
}

describe('txa import: a BscScan token-tracker export whose name lost the token (bscscan-token-tracker.csv)', () => {
  tokenTracker({
    file: fixture('bscscan-token-tracker.csv'),
    wallet: '0x48e50149d3756692951fbc4382973598f30bd3e6',
    token: '0x19BEB14d42D93759f2D66CEFfcDEE252dc156333',
    addressExport: fixture('etherscan-erc20.csv'),
    skipped: 5, // lines 4, 5, 9, 10, 13
    transfers: [
      ['2022-01-01T00:01:01Z', 'mint', 'inflow', '2500'], // from the zero address, "2,500"
      ['2022-01-01T01:03:20Z', 'burn', 'outflow', '2500'], // to the zero address
      ['2022-01-02T05:06:40Z', 'mint', 'inflow', '4000000'],
      ['2022-01-03T08:53:20Z', 'transfer', 'outflow', '2000'],
      ['2022-01-03T08:58:20Z', 'transfer', 'outflow', '1250000'],
      ['2022-01-13T15:26:40Z', 'transfer', 'inflow', '0.000000000000000001'], // line 12, 1E-18
      ['2022-01-13T15:26:40Z', 'transfer', 'outflow', '97531.2'], // line 11, "97,531.20"
    ],
    // 4,002,500.000000000000000001 in − 1,352,031.2 out.
    balance: '2650468.800000000000000001',
  });
});

describeSamples('txa import: a BscScan token-tracker export whose name lost the token (README 1.5)', () => {
  tokenTracker({
    file: sample('bscscan_token_transfers_excel_resaved.csv'),
    wallet: '0x72571d815dd31fbde52be0b9d7ffc8344aede616',
    token: '0x7961Ade0a767c0E5B67Dd1a1F78ba44F727642Ed',
    addressExport: sample('etherscan_erc20_token_txns.csv'),
    skipped: 872,
    transfers: [
      ['2021-11-16T04:07:33Z', 'mint', 'inflow', '1000'],
      ['2021-11-16T04:13:34Z', 'burn', 'outflow', '1000'], // to the zero address
      ['2021-11-17T07:34:21Z', 'mint', 'inflow', '6000000'], // from the zero address, "6,000,000"
      ['2021-11-18T04:12:48Z', 'transfer', 'outflow', '1000'],
      ['2021-11-18T04:17:55Z', 'transfer', 'outflow', '1999000'],
      ['2021-11-18T14:32:59Z', 'transfer', 'outflow', '322581'],
      ['2021-11-18T14:57:21Z', 'transfer', 'outflow', '322581'],
      ['2021-11-18T15:26:35Z', 'transfer', 'outflow', '138967.8'], // line 660, "138,967.80"
    ],
    // 6,001,000 in − 2,785,129.8 out.
    balance: '3215870.2',
  });
});

describe('txa import: JSON export round trip', () => {
  it('keeps notes byte for byte, leading and trailing whitespace included', async () => {
    const { sb, wallet } = await walletSandbox(ARB_CONTRACT, 'arbitrum');
    await sb.json(['import', fixture('arbiscan-raw.csv'), '--wallet', wallet]);
    const ids: string[] = (await sb.json(['tx', 'list', '--sort', 'timestamp_asc'])).data.map((t: { id: string }) => t.id);
    const notes = ['\tx', '  both ends  ', 'line\n', '\u3000全角'];
    for (const [i, n] of notes.entries()) await sb.json(['tx', 'update', ids[i]!, '--notes', n]);
    const out = join(sb.dir, 'export.json');
    expect((await sb.txa(['export', 'create', '--format', 'json', '--out', out])).exitCode).toBe(0);
    expect(
      JSON.parse(readFileSync(out, 'utf8'))
        .transactions.map((t: { notes: string | null }) => t.notes)
        .filter(Boolean)
        .sort(),
    ).toEqual([...notes].sort());

    const other = (await sb.json(['workspace', 'create', 'Copy'])).data.id as string;
    const env = { TXA_WORKSPACE: other };
    expect((await sb.json(['import', out], { env })).data).toMatchObject({ format: 'json', imported: 5 });
    const copied = (await sb.json(['tx', 'list', '--sort', 'timestamp_asc'], { env })).data.map((t: { notes: string | null }) => t.notes);
    expect(copied).toEqual([...notes, null]);
  });
});
