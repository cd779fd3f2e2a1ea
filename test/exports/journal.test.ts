/**
 * The journal writer on rows that carry own transfers (CONTRACT §9's `transfer` field), and the
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
    tx_hash: `0x${leg.id}`, wallet_label: wallet.label, chain: wallet.chain as Transaction['chain'], from_address: wallet.address, to_address: wallet.address,
    token: { symbol: 'ETH', address: null, decimals: 18 }, fiat_value: null, type: 'transfer', tags: [], notes: null, attachments: [], explorer_url: '',
    transfer: null, fiat_value_source: null, spam: false, ...leg,
  };
}

const own = (id: string, counterpart: string | null) => ({ transfer: { id, counterpart_id: counterpart, kind: 'internal' as const, matched_by: 'user' as const } });

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
    exportId: 'exp_test', createdAt: '2025-01-01T00:00:00Z', format, workspace: { id: 'ws_test', name: 'Test' }, options: { currency: 'USD' }, tags: [],
    transactionCount: held.length, catalog: () => catalogOf(rows), rows: () => held, selected: (id: string) => held.find((r) => r.id === id) ?? null, onProgress: () => {},
  } as unknown as ExportJob;
  const file = join(mkdtempSync(join(tmpdir(), 'txa-journal-')), format === 'ledger' ? 'x.journal' : 'x.beancount');
  await writeJournal(job, file);
  return { file, text: readFileSync(file, 'utf8') };
}

async function hledgerBal(file: string): Promise<string> {
  const out = (await execa('hledger', ['-f', file, 'bal', '--flat', '-E', '-N'])).stdout;
  return out.split('\n').map((l) => l.replace(/ +/g, ' ').trim()).join('\n');
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
  test('both legs are one entry between the wallets\' accounts, written at the first leg met', async () => {
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
    const { file, text } = await journal('ledger', rows, rows.filter((r) => r.wallet_id === 'wal_a'));
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
      'ETH', 'FINDTHERABBIT-ME', 'USDC-E', 'T1INCH', 'TX', 'TOKEN', 'MEME', 'A'.repeat(24), 'AB', 'UNI',
    ]);
    for (const name of ['ETH', 'FINDTHERABBIT-ME', 'T1INCH', 'TOKEN']) expect(name).toMatch(/^[A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]$/);
  });

  test('account components start with a capital and hold letters, digits and hyphens only', () => {
    expect(['Main wallet', 'café ☕ ops', '财务钱包', '  -x- ', 'Cold #2 (Ledger)'].map(accountComponent)).toEqual(['Main-wallet', 'Cafe-ops', '', 'X', 'Cold-2-Ledger']);
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
    const names = new JournalNames(catalog, [{ id: 't1', name: 'Fees', type: 'expense' }, { id: 't2', name: 'fees!', type: 'income' }], 'USD');
    expect(['w1', 'w2', 'w3', 'w4'].map((w) => names.wallet(w))).toEqual(['Assets:Main', 'Assets:Main-Polygon', 'Assets:Main-2', 'Assets:Wallet-444444']);
    expect(names.commodity('USDC', `0x${'a'.repeat(40)}`)).toBe('USDC');
    expect(names.commodity('USDC', `0x${'b'.repeat(40)}`)).toBe('USDC-BBBBBBBB');
    expect(names.commodity('usd', null)).toBe('USD-2');
    expect([names.tag('t1')!.account, names.tag('t2')!.account]).toEqual(['Expenses:Fees-2', 'Income:Fees-3']);
  });
});
