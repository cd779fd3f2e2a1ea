/**
 * `txa export create --format ledger|beancount` on a ledger built through the CLI: wallets with
 * a shared label, a non-Latin one and an accented one; odd token symbols (a domain, lower case, a
 * leading digit, a look-alike USDC, a symbol with no Latin letter); 18-decimal amounts. Real
 * `hledger` must give each wallet and token exactly `txa wallet list`'s balance, and `bean-check`
 * must accept the beancount file. CI installs both (.ci/run); elsewhere the tool tests skip, saying so.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { normalizeDecimal } from '../../src/core/money.js';

const hasTool = async (bin: string) => (await execa(bin, ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const HLEDGER = await hasTool('hledger');
const BEANCOUNT = await hasTool('bean-check');
if (!HLEDGER) console.warn('hledger is not installed: skipping the hledger balance tests (CI installs it: apt-get install -y hledger)');
if (!BEANCOUNT) console.warn('bean-check is not installed: skipping the beancount tests (CI installs it: apt-get install -y beancount)');

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Journal Co', '--tier', 'pro'])).data.id;

/** Wallets are added a second apart, so their order (and so which `Main` keeps the plain name) is fixed. */
async function wallet(address: string, chain: string, label: string, at: string): Promise<string> {
  return (await s.json(['wallet', 'add', '--address', address, '--chain', chain, '--label', label], { env: { TXA_NOW: at } })).data.id;
}
const main = await wallet(`0x${'1'.repeat(40)}`, 'ethereum', 'Main', '2025-01-01T00:00:01Z');
const mainPolygon = await wallet(`0x${'1'.repeat(40)}`, 'polygon', 'Main', '2025-01-01T00:00:02Z');
const cjk = await wallet(`0x${'2'.repeat(40)}`, 'arbitrum', '财务钱包', '2025-01-01T00:00:03Z');
const cafe = await wallet(`0x${'3'.repeat(40)}`, 'bsc', 'Café ☕ ops', '2025-01-01T00:00:04Z');

const salary = (await s.json(['tags', 'create', '--name', 'Salary', '--type', 'income'])).data.id;
const rent = (await s.json(['tags', 'create', '--name', 'Office rent', '--type', 'expense'])).data.id;

const OTHER = `0x${'5'.repeat(40)}`;
let hash = 0;
function row(
  walletAddress: string,
  chain: string,
  token: [string, string | null, number],
  amount: string,
  direction: 'inflow' | 'outflow',
  day: string,
  fiat: number | null,
  extra: object = {},
) {
  const [from, to] = direction === 'inflow' ? [OTHER, walletAddress] : [walletAddress, OTHER];
  return {
    tx_hash: `0x${(++hash).toString(16).padStart(64, '0')}`,
    chain,
    from_address: from,
    to_address: to,
    token: { symbol: token[0], address: token[1], decimals: token[2] },
    amount,
    fiat_value: fiat,
    direction,
    type: 'transfer',
    timestamp: `${day}T12:00:00Z`,
    ...extra,
  };
}
async function load(walletId: string, rows: object[]): Promise<void> {
  const file = join(s.dir, `${walletId}.ndjson`);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
  const r = await s.txa(['import', file, '--wallet', walletId, '--format', 'ndjson']);
  expect(r.exitCode, r.stderr).toBe(0);
}
const ETH: [string, null, number] = ['ETH', null, 18];
const USDC: [string, string, number] = ['USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 6];
const FAKE_USDC: [string, string, number] = ['USDC', `0x${'b'.repeat(40)}`, 6];
const RABBIT: [string, string, number] = ['findtherabbit.me', `0x${'7'.repeat(40)}`, 18];
const a = `0x${'1'.repeat(40)}`;
await load(main, [
  row(a, 'ethereum', ETH, '3.123456789012345678', 'inflow', '2024-01-10', 7000.5, { notes: 'January pay; "net"\nsecond line' }),
  row(a, 'ethereum', ETH, '0.000000000000000001', 'outflow', '2024-01-11', null, { type: 'fee' }),
  row(a, 'ethereum', ETH, '1.5', 'outflow', '2024-02-01', 3600),
  row(a, 'ethereum', USDC, '2500.123456', 'inflow', '2024-02-02', 2500.12),
  row(a, 'ethereum', USDC, '2500', 'inflow', '2024-02-03', 2500),
  row(a, 'ethereum', FAKE_USDC, '1000000', 'inflow', '2024-02-04', null),
  row(a, 'ethereum', RABBIT, '777.000000000000000007', 'inflow', '2024-02-05', 0),
  row(a, 'ethereum', USDC, '0', 'outflow', '2024-02-06', null, { type: 'approval' }),
]);
await load(mainPolygon, [
  row(a, 'polygon', ['POL', null, 18], '120.000000000000000001', 'inflow', '2024-03-01', 60),
  row(a, 'polygon', ['POL', null, 18], '20', 'outflow', '2024-03-02', 10),
]);
const c = `0x${'2'.repeat(40)}`;
await load(cjk, [
  row(c, 'arbitrum', ETH, '0.25', 'inflow', '2024-04-01', 800),
  row(c, 'arbitrum', ['weth', `0x${'8'.repeat(40)}`, 18], '0.1', 'inflow', '2024-04-02', 320),
  row(c, 'arbitrum', ['weth', `0x${'8'.repeat(40)}`, 18], '0.2', 'outflow', '2024-04-03', 640),
]);
const d = `0x${'3'.repeat(40)}`;
await load(cafe, [
  row(d, 'bsc', ['BNB', null, 18], '2', 'inflow', '2024-05-01', 1200),
  row(d, 'bsc', ['BNB', null, 18], '0.5', 'outflow', '2024-05-02', 300),
  row(d, 'bsc', ['1INCH', `0x${'9'.repeat(40)}`, 18], '10', 'inflow', '2024-05-03', 4),
  row(d, 'bsc', ['Ψ', `0x${'a'.repeat(40)}`, 0], '5', 'inflow', '2024-05-04', null),
]);
const txs = (await s.json(['tx', 'list', '--all'])).data as { id: string; notes: string | null; direction: string; wallet_id: string }[];
await s.json(['tx', 'tag', txs.find((t) => t.notes?.startsWith('January pay'))!.id, salary]);
await s.json(['tx', 'tag', txs.find((t) => t.wallet_id === cafe && t.direction === 'outflow')!.id, rent]);

/** What each wallet and token is called in the journals (docs/journals.md). */
const WALLET_NAMES: Record<string, string> = { [main]: 'Main', [mainPolygon]: 'Main-Polygon', [cjk]: 'Wallet-222222', [cafe]: 'Cafe-ops' };
const COMMODITY = (symbol: string, address: string | null) =>
  address === FAKE_USDC[1]
    ? 'USDC-BBBBBBBB'
    : (({ 'findtherabbit.me': 'FINDTHERABBIT-ME', weth: 'WETH', '1INCH': 'T1INCH', Ψ: 'TOKEN' } as Record<string, string>)[symbol] ?? symbol);

async function exportJournal(format: 'ledger' | 'beancount', extra: string[] = [], env?: Record<string, string>): Promise<string> {
  const out = join(s.dir, `${format}-${extra.join('')}${env ? 'remote' : ''}.${format === 'ledger' ? 'journal' : 'beancount'}`);
  const r = await s.txa(['export', 'create', '--format', format, '--out', out, ...extra], env ? { env } : {});
  expect(r.exitCode, r.stderr).toBe(0);
  return out;
}

/** txa's balances, by the account the journal gives them. */
async function txaBalances(): Promise<Map<string, string>> {
  const wallets = (await s.json(['wallet', 'list'])).data as {
    id: string;
    balance: { tokens: { symbol: string; address: string | null; balance: string }[] };
  }[];
  return new Map(
    wallets.flatMap((w) => w.balance.tokens.map((t) => [`Assets:${WALLET_NAMES[w.id]}:${COMMODITY(t.symbol, t.address)}`, t.balance] as [string, string])),
  );
}

/** hledger's balance of each Assets account, the number exact (its trailing zeros dropped). */
async function hledgerBalances(file: string): Promise<Map<string, string>> {
  const r = await execa('hledger', ['-f', file, 'bal', '--flat', '-E', '-O', 'csv', '^Assets:']);
  const rows = (parse(r.stdout) as string[][]).slice(1).filter((x) => x[0] !== 'total');
  return new Map(
    rows.map(([account, amount]) => {
      const m = /^(-?[\d.]+) (?:"([^"]+)"|(\S+))$/.exec(amount!);
      expect(m, `${account}: ${amount}`).not.toBeNull();
      expect(account!.endsWith(`:${m![2] ?? m![3]}`), `${account} holds ${amount}`).toBe(true);
      return [account!, normalizeDecimal(m![1]!)!];
    }),
  );
}

let srv: ServeProcess | undefined;
afterAll(() => srv?.stop());

describe('export create --format ledger (hledger)', () => {
  test.skipIf(!HLEDGER)("hledger reads the journal and its balance of every wallet and token is txa's, to the last digit", async () => {
    const file = await exportJournal('ledger');
    const expected = await txaBalances();
    expect(expected.get('Assets:Main:ETH')).toBe('1.623456789012345677');
    expect(expected.get('Assets:Main-Polygon:POL')).toBe('100.000000000000000001');
    expect(await hledgerBalances(file)).toEqual(expected);
    // --strict: every account and commodity is declared in the file.
    expect((await execa('hledger', ['-f', file, 'check', '--strict'], { reject: false })).stderr).toBe('');
  });

  test.skipIf(!HLEDGER)("income and expenses go to the tags' accounts at their fiat value; untagged rows to Equity:Unknown", async () => {
    const file = await exportJournal('ledger');
    const r = await execa('hledger', ['-f', file, 'bal', '--flat', '-O', 'csv', '^(Income|Expenses|Equity):']);
    const rows = Object.fromEntries((parse(r.stdout) as string[][]).slice(1));
    expect(rows['Income:Salary']).toBe('-7000.50 USD');
    expect(rows['Expenses:Office-rent']).toBe('300.00 USD');
    expect(rows['Expenses:Fees']).toBe('0.000000000000000001 ETH');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('2024-01-10 * January pay, "net" second line\n');
    expect(text).toContain('    ; Salary:\n');
    expect(text).toContain('P 2024-02-01 ETH 2400 USD\n');
    expect(text).toContain('    ; wallet_label: 财务钱包\n');
    expect(text).not.toContain('approval');
  });

  test.skipIf(!HLEDGER)("a period writes that period's rows; the accounts keep their names", async () => {
    const text = readFileSync(await exportJournal('ledger', ['--period', '2024-05']), 'utf8');
    expect(text.match(/^\d{4}-\d\d-\d\d \*/gm)).toHaveLength(4);
    expect(text).toContain('account Assets:Main-Polygon:POL\n');
  });
});

describe('export create --format beancount', () => {
  test.skipIf(!BEANCOUNT)('bean-check reads the file without errors', async () => {
    const file = await exportJournal('beancount');
    const r = await execa('bean-check', [file], { reject: false });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('open Assets:Wallet-222222:ETH\n  wallet_label: "财务钱包"\n');
    expect(text).toContain('commodity FINDTHERABBIT-ME\n  symbol: "findtherabbit.me"\n');
    expect(text).toContain('* "January pay; \\"net\\" second line" #Salary\n');
  });

  test.skipIf(!BEANCOUNT)('the remote backend passes the format through to txa serve', async () => {
    const key = (await s.txa(['keys', 'create', '--name', 'ci'])).stdout.trim();
    srv = await startServe(s.env.TXA_DB!);
    const file = await exportJournal('beancount', [], { TXA_BASE_URL: srv.url, TXA_API_KEY: key });
    expect((await execa('bean-check', [file], { reject: false })).exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('open Assets:Cafe-ops:BNB\n');
  });
});

describe('journal export requests', () => {
  test('only download delivery; no report type, no grouping', async () => {
    const email = await s.txa(['export', 'create', '--format', 'ledger', '--email', 'a@example.com']);
    expect([email.exitCode, email.stderr]).toEqual([1, expect.stringContaining('error: INVALID_FIELD (delivery.method): ')]);
    const report = await s.txa(['export', 'create', '--format', 'beancount', '--report-type', 'tax']);
    expect([report.exitCode, report.stderr]).toEqual([1, expect.stringContaining('error: INVALID_FIELD (report-type): ')]);
    const grouped = await s.txa(['export', 'create', '--format', 'ledger', '--group-by', 'month']);
    expect([grouped.exitCode, grouped.stderr]).toEqual([1, expect.stringContaining('error: INVALID_FIELD (group-by): ')]);
  });
});
