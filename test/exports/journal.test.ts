/**
 * The journal writer on rows that carry own transfers (docs/accounting.md "Own transfers"), and the
 * names it gives accounts and commodities. The journals are read back by real hledger and
 * bean-check when installed (CI installs both; elsewhere those tests skip, saying so).
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeJournal } from '../../src/exporters/journal/index.js';
import { accountComponent, commodityName, JournalNames } from '../../src/exporters/journal/names.js';
import type { ExportJob } from '../../src/exporters/types.js';
import type { LedgerCatalog } from '../../src/store/catalog.js';
import type { Transaction } from '../../src/core/types.js';
import { addDecimals, normalizeDecimal } from '../../src/core/money.js';
import { pieces, piecesNotice } from '../../src/exporters/journal/precision.js';

const hasTool = async (bin: string) => (await execa(bin, ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const HLEDGER = await hasTool('hledger');
const BEANCOUNT = await hasTool('bean-check');
if (!HLEDGER || !BEANCOUNT) console.warn('hledger or bean-check is not installed: skipping the tests that read journals back (CI installs them)');

const WALLETS = [
  { id: 'wal_a', label: 'Hot', chain: 'ethereum', address: `0x${'a'.repeat(40)}` },
  { id: 'wal_c', label: 'L2', chain: 'arbitrum', address: `0x${'c'.repeat(40)}` },
];

type Leg = Partial<Transaction> & Pick<Transaction, 'id' | 'wallet_id' | 'amount' | 'direction' | 'timestamp'>;

function tx(leg: Leg): Transaction {
  const wallet = WALLETS.find((w) => w.id === leg.wallet_id)!;
  return {
    tx_hash: `0x${leg.id}`,
    wallet_label: wallet.label,
    chain: wallet.chain as Transaction['chain'],
    from_address: wallet.address,
    to_address: wallet.address,
    token: { symbol: 'ETH', address: null, decimals: 18 },
    fiat_value: null,
    type: 'transfer',
    tags: [],
    notes: null,
    attachments: [],
    explorer_url: '',
    transfer: null,
    fiat_value_source: null,
    spam: false,
    ...leg,
  };
}

const own = (id: string, counterpart: string | null) => ({
  transfer: { id, counterpart_id: counterpart, kind: 'internal' as const, matched_by: 'user' as const },
});

function catalogOf(rows: Transaction[]): LedgerCatalog {
  const holdings = new Map<string, LedgerCatalog['holdings'][number]>();
  for (const r of rows) {
    const key = `${r.wallet_id} ${r.token.symbol} ${r.token.address}`;
    holdings.set(key, { walletId: r.wallet_id, symbol: r.token.symbol, address: r.token.address, rows: (holdings.get(key)?.rows ?? 0) + 1 });
  }
  return { wallets: WALLETS, holdings: [...holdings.values()], firstDay: rows[0]!.timestamp.slice(0, 10) };
}

/** A journal of `rows` (in time order); `held` are the ids the export's filter selects (default: all). */
async function journal(format: 'ledger' | 'beancount', rows: Transaction[], held = rows): Promise<{ file: string; text: string }> {
  const job = {
    exportId: 'exp_test',
    createdAt: '2025-01-01T00:00:00Z',
    format,
    workspace: { id: 'ws_test', name: 'Test' },
    options: { currency: 'USD' },
    tags: [],
    transactionCount: held.length,
    catalog: () => catalogOf(rows),
    rows: () => held,
    selected: (id: string) => held.find((r) => r.id === id) ?? null,
    onProgress: () => {},
  } as unknown as ExportJob;
  const file = join(mkdtempSync(join(tmpdir(), 'txa-journal-')), format === 'ledger' ? 'x.journal' : 'x.beancount');
  await writeJournal(job, file);
  return { file, text: readFileSync(file, 'utf8') };
}

async function hledgerBal(file: string): Promise<string> {
  const out = (await execa('hledger', ['-f', file, 'bal', '--flat', '-E', '-N'])).stdout;
  return out
    .split('\n')
    .map((l) => l.replace(/ +/g, ' ').trim())
    .join('\n');
}

// Hot buys 2 ETH; sends them to L2 where 1.99 arrive (a bridge's fee); L2 receives 0.3 ETH whose
// sending leg reads later (the chains' clocks disagree); Hot sends 0.1 ETH to a wallet the ledger lacks.
const rows = [
  tx({ id: 'buy', wallet_id: 'wal_a', amount: '2', direction: 'inflow', timestamp: '2024-01-01T00:00:00Z', fiat_value: 6000 }),
  tx({ id: 'out1', wallet_id: 'wal_a', amount: '2', direction: 'outflow', timestamp: '2024-02-01T00:00:00Z', fiat_value: 8000, ...own('trf_1', 'in1') }),
  tx({ id: 'in1', wallet_id: 'wal_c', amount: '1.99', direction: 'inflow', timestamp: '2024-02-01T00:10:00Z', fiat_value: 7960, ...own('trf_1', 'out1') }),
  tx({ id: 'in2', wallet_id: 'wal_c', amount: '0.3', direction: 'inflow', timestamp: '2024-03-01T00:00:00Z', ...own('trf_2', 'out2') }),
  tx({ id: 'out2', wallet_id: 'wal_c', amount: '0.3', direction: 'outflow', timestamp: '2024-03-01T00:00:05Z', ...own('trf_2', 'in2') }),
  tx({ id: 'gone', wallet_id: 'wal_a', amount: '0.1', direction: 'outflow', timestamp: '2024-04-01T00:00:00Z', ...own('trf_3', null) }),
];

describe('own transfers in journals', () => {
  test("both legs are one entry between the wallets' accounts, written at the first leg met", async () => {
    const { text } = await journal('ledger', rows);
    expect(text).toContain(
      '2024-02-01 * own transfer Hot to L2\n    ; id: out1\n    ; tx_hash: 0xout1\n    ; chain: ethereum\n    ; type: transfer\n    ; counterpart_id: in1\n    ; transfer_id: trf_1\n' +
        '    Assets:Hot:ETH  -2 ETH\n    Assets:L2:ETH  1.99 ETH\n    Equity:Transfers  0.01 ETH\n',
    );
    expect(text).toContain('2024-03-01 * own transfer L2 to L2\n    ; id: in2\n');
    expect(text).not.toContain('; id: out2\n');
    expect(text.match(/^\d{4}-\d\d-\d\d \*/gm)).toHaveLength(4);
  });

  test.skipIf(!HLEDGER)('hledger: what arrived short and what left for a wallet the ledger lacks are in Equity:Transfers', async () => {
    const { file } = await journal('ledger', rows);
    expect(await hledgerBal(file)).toBe(
      ['-0.10 ETH Assets:Hot:ETH', '1.99 ETH Assets:L2:ETH', '-6000.00 USD Equity:Unknown', '0.11 ETH Equity:Transfers'].join('\n'),
    );
  });

  test.skipIf(!HLEDGER)('a leg whose counterpart the export does not hold moves against Equity:Transfers', async () => {
    const { file, text } = await journal(
      'ledger',
      rows,
      rows.filter((r) => r.wallet_id === 'wal_a'),
    );
    expect(text).toContain('    Assets:Hot:ETH  -2 ETH\n    Equity:Transfers  2 ETH\n');
    expect(await hledgerBal(file)).toContain('-0.1 ETH Assets:Hot:ETH');
  });

  test.skipIf(!BEANCOUNT)('bean-check reads the transfers', async () => {
    const { file } = await journal('beancount', rows);
    const r = await execa('bean-check', [file], { reject: false });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
  });
});

describe('journal names', () => {
  test('commodities are valid for beancount: upper case, 2–24 characters, starting with a letter', () => {
    expect(['ETH', 'findtherabbit.me', 'USDC.e', '1INCH', 'x', 'Ψ', '$MEME', 'A'.repeat(30), 'ab--', 'Ünï'].map(commodityName)).toEqual([
      'ETH',
      'FINDTHERABBIT-ME',
      'USDC-E',
      'T1INCH',
      'TX',
      'TOKEN',
      'MEME',
      'A'.repeat(24),
      'AB',
      'UNI',
    ]);
    for (const name of ['ETH', 'FINDTHERABBIT-ME', 'T1INCH', 'TOKEN']) expect(name).toMatch(/^[A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]$/);
  });

  test('account components start with a capital and hold letters, digits and hyphens only', () => {
    expect(['Main wallet', 'café ☕ ops', '财务钱包', '  -x- ', 'Cold #2 (Ledger)'].map(accountComponent)).toEqual([
      'Main-wallet',
      'Cafe-ops',
      '',
      'X',
      'Cold-2-Ledger',
    ]);
  });

  test('names that sanitise alike are made unique deterministically', () => {
    const catalog: LedgerCatalog = {
      wallets: [
        { id: 'w1', label: 'Main', chain: 'ethereum', address: `0x${'1'.repeat(40)}` },
        { id: 'w2', label: 'main', chain: 'polygon', address: `0x${'1'.repeat(40)}` },
        { id: 'w3', label: 'Main!', chain: 'polygon', address: `0x${'3'.repeat(40)}` },
        { id: 'w4', label: '钱包', chain: 'bsc', address: `0x${'4'.repeat(40)}` },
      ],
      holdings: [
        { walletId: 'w1', symbol: 'USDC', address: `0x${'b'.repeat(40)}`, rows: 1 },
        { walletId: 'w1', symbol: 'USDC', address: `0x${'a'.repeat(40)}`, rows: 9 },
        { walletId: 'w2', symbol: 'usd', address: null, rows: 1 },
      ],
      firstDay: '2024-01-01',
    };
    const names = new JournalNames(
      catalog,
      [
        { id: 't1', name: 'Fees', type: 'expense' },
        { id: 't2', name: 'fees!', type: 'income' },
      ],
      'USD',
    );
    expect(['w1', 'w2', 'w3', 'w4'].map((w) => names.wallet(w))).toEqual(['Assets:Main', 'Assets:Main-Polygon', 'Assets:Main-2', 'Assets:Wallet-444444']);
    expect(names.commodity('USDC', `0x${'a'.repeat(40)}`)).toBe('USDC');
    expect(names.commodity('USDC', `0x${'b'.repeat(40)}`)).toBe('USDC-BBBBBBBB');
    expect(names.commodity('usd', null)).toBe('USD-2');
    expect([names.tag('t1')!.account, names.tag('t2')!.account]).toEqual(['Expenses:Fees-2', 'Income:Fees-3']);
  });
});

describe("amounts beyond beancount's 28 significant digits", () => {
  const MEME = { token: { symbol: 'MEME', address: `0x${'e'.repeat(40)}`, decimals: 18 } };
  // The issue's 10^28 tokens and one base unit; the most a uint256 holds at 18 decimals; a leg of 46
  // digits whose other leg has 28; a sale of 49 digits at a value; 28 digits, which fit.
  const ISSUE = '10000000000000000000000000000.000000000000000001';
  const UINT256 = '115792089237316195423570985008687907853269984665640564039457.584007913129639935';
  const SENT = '5000000000000000000000000000.000000000000000001';
  const ARRIVED = '4999999999999999999999999999';
  const SOLD = '1234567890123456789012345678901.123456789012345678';
  const FITS = '1234567890.123456789012345678';
  const wide = [
    tx({ id: 'issue', wallet_id: 'wal_a', amount: ISSUE, direction: 'inflow', timestamp: '2024-01-01T00:00:00Z', ...MEME }),
    tx({ id: 'max', wallet_id: 'wal_c', amount: UINT256, direction: 'inflow', timestamp: '2024-01-02T00:00:00Z', ...MEME }),
    tx({ id: 'sent', wallet_id: 'wal_a', amount: SENT, direction: 'outflow', timestamp: '2024-01-03T00:00:00Z', ...MEME, ...own('trf_w', 'arrived') }),
    tx({ id: 'arrived', wallet_id: 'wal_c', amount: ARRIVED, direction: 'inflow', timestamp: '2024-01-03T00:01:00Z', ...MEME, ...own('trf_w', 'sent') }),
    tx({ id: 'sold', wallet_id: 'wal_c', amount: SOLD, direction: 'outflow', timestamp: '2024-01-04T00:00:00Z', fiat_value: 8000, ...MEME }),
    tx({ id: 'fits', wallet_id: 'wal_a', amount: FITS, direction: 'inflow', timestamp: '2024-01-05T00:00:00Z', ...MEME }),
  ];
  const balances = {
    'Assets:Hot:MEME': addDecimals([ISSUE, `-${SENT}`, FITS]),
    'Assets:L2:MEME': addDecimals([UINT256, ARRIVED, `-${SOLD}`]),
  };

  /** Each account's postings in a beancount file, summed exactly (beancount's own reports round past 28 digits). */
  function beancountSums(text: string): Record<string, string> {
    const sums: Record<string, string[]> = {};
    for (const [, account, quantity] of text.matchAll(/^ {2}(Assets:\S+) {2}(\S+) MEME/gm)) (sums[account!] ??= []).push(quantity!);
    return Object.fromEntries(Object.entries(sums).map(([a, qs]) => [a, addDecimals(qs)]));
  }

  test('an amount is split into pieces of at most 28 digits, largest first, summing to it', () => {
    expect(pieces(`-${ISSUE}`)).toEqual(['-10000000000000000000000000000', '-0.000000000000000001']);
    expect(pieces(UINT256)).toEqual([
      '115792089237316195423570985000000000000000000000000000000000',
      '8687907853269984665640564039000',
      '457.584007913129639935',
    ]);
    expect(pieces(FITS)).toEqual([FITS]);
    expect(pieces(`-1${'0'.repeat(60)}`)).toEqual([`-1${'0'.repeat(60)}`]);
  });

  test.skipIf(!BEANCOUNT)("bean-check accepts the file, and each account's postings sum to its exact balance", async () => {
    const { file, text } = await journal('beancount', wide);
    const r = await execa('bean-check', [file], { reject: false });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(beancountSums(text)).toEqual(balances);
    for (const [, q] of text.matchAll(/^ {2}\S+ {2}-?([\d.]+) /gm))
      expect(q!.replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length).toBeLessThanOrEqual(28);
    // The issue's row: each piece beside its counter piece, and a comment saying so.
    expect(text).toContain(
      `; txa: Assets:Hot:MEME ${ISSUE} MEME, Equity:Unknown -${ISSUE} MEME: more than 28 significant digits, beyond what beancount holds exactly; written as pieces of at most 28 on the same account, each beside its counter piece\n` +
        '2024-01-01 * "transfer from 0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n',
    );
    expect(text).toContain(
      '  Assets:Hot:MEME  10000000000000000000000000000 MEME\n  Equity:Unknown  -10000000000000000000000000000 MEME\n' +
        '  Assets:Hot:MEME  0.000000000000000001 MEME\n  Equity:Unknown  -0.000000000000000001 MEME\n',
    );
    // A transfer's legs each against Equity:Transfers; a sale's value on its first piece.
    expect(text).toContain(
      '  Assets:Hot:MEME  -5000000000000000000000000000 MEME\n  Equity:Transfers  5000000000000000000000000000 MEME\n' +
        '  Assets:Hot:MEME  -0.000000000000000001 MEME\n  Equity:Transfers  0.000000000000000001 MEME\n' +
        `  Assets:L2:MEME  ${ARRIVED} MEME\n  Equity:Transfers  -${ARRIVED} MEME\n`,
    );
    expect(text).toContain(
      '  Assets:L2:MEME  -1234567890123456789012345678000 MEME @@ 8000.00 USD\n  Assets:L2:MEME  -901.123456789012345678 MEME @@ 0.00 USD\n  Equity:Unknown  8000.00 USD\n',
    );
    expect(text).toContain(`  Assets:Hot:MEME  ${FITS} MEME\n  Equity:Unknown  -${FITS} MEME\n\n`);
    expect(text.match(/^; txa: /gm)).toHaveLength(5);
    expect(
      text.endsWith(
        '; txa: 4 entries have amounts of more than 28 significant digits, beyond beancount\'s precision, written in pieces (see the "; txa:" comment before each; docs/journals.md)\n',
      ),
    ).toBe(true);
    expect(await piecesNotice(file)).toMatch(/^txa: 4 entries have amounts of more than 28 significant digits/);
  });

  test.skipIf(!HLEDGER)('the hledger journal keeps every amount whole, and hledger balances them exactly', async () => {
    const { file, text } = await journal('ledger', wide);
    expect(text).not.toContain('; txa:');
    expect(text).toContain(`    Assets:Hot:MEME  ${ISSUE} MEME\n    Equity:Unknown  -${ISSUE} MEME\n`);
    expect(text).toContain(`    Assets:Hot:MEME  -${SENT} MEME\n    Assets:L2:MEME  ${ARRIVED} MEME\n    Equity:Transfers  1.000000000000000001 MEME\n`);
    const bal = (await hledgerBal(file)).split('\n').map((l) => l.split(' '));
    expect(Object.fromEntries(bal.filter(([, , a]) => a?.startsWith('Assets:')).map(([q, , a]) => [a, normalizeDecimal(q!)]))).toEqual(balances);
    expect(await piecesNotice(file)).toBeNull();
  });
});
