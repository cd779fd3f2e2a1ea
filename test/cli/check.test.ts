/**
 * `txa check` on the built binary, over a ledger built through the CLI with one finding of each
 * kind: exit 1 and the JSON report of docs/check.md "`txa check`"; `--allow`, `--period`; exit 0 when clean.
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Check Co'])).data.id;
const [A, B, C] = [`0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`, `0x${'c'.repeat(40)}`];
const OTHER = `0x${'5'.repeat(40)}`;
const walletA = (await s.json(['wallet', 'add', '--address', A, '--chain', 'ethereum', '--label', 'A'])).data.id as string;
const walletB = (await s.json(['wallet', 'add', '--address', B, '--chain', 'ethereum', '--label', 'B'])).data.id as string;
const walletC = (await s.json(['wallet', 'add', '--address', C, '--chain', 'polygon', '--label', 'C'])).data.id as string;
const salary = (await s.json(['tags', 'create', '--name', 'Salary', '--type', 'income'])).data.id as string;

let n = 0;
function row(chain: string, symbol: string, from: string, to: string, amount: string, direction: string, day: string, fiat: number | null, type = 'transfer') {
  return {
    tx_hash: `0x${(++n).toString(16).padStart(64, '0')}`,
    chain,
    from_address: from,
    to_address: to,
    token: { symbol, address: null, decimals: 18 },
    amount,
    fiat_value: fiat,
    direction,
    type,
    timestamp: `${day}T12:00:00Z`,
  };
}
async function load(wallet: string, rows: object[]): Promise<void> {
  writeFileSync(join(s.dir, 'rows.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n'));
  const r = await s.txa(['import', 'rows.ndjson', '--wallet', wallet, '--format', 'ndjson']);
  expect(r.exitCode, r.stderr).toBe(0);
}
await load(walletA, [
  row('ethereum', 'ETH', OTHER, A, '1', 'inflow', '2024-01-05', 2000),
  row('ethereum', 'ETH', A, OTHER, '0.3', 'outflow', '2024-01-06', null),
  row('ethereum', 'ETH', A, B, '0.2', 'outflow', '2024-01-07', 400),
  row('ethereum', 'ETH', A, OTHER, '0', 'outflow', '2024-01-08', null, 'approval'),
]);
await load(walletB, [row('ethereum', 'ETH', A, B, '0.2', 'inflow', '2024-01-07', 400)]);
await load(walletC, [
  row('polygon', 'POL', C, OTHER, '5.000000000000000001', 'outflow', '2024-02-01', 2.5),
  // A bridge from A's 0.3 ETH outflow, 20 minutes later on Polygon: proposed, not confirmed.
  { ...row('polygon', 'ETH', OTHER, C, '0.3', 'inflow', '2024-01-06', 600), timestamp: '2024-01-06T12:20:00Z' },
]);
const rows = (await s.json(['tx', 'list', '--all', '--sort', 'timestamp_asc'])).data as { id: string; wallet_id: string; amount: string; direction: string }[];
const id = (wallet: string, amount: string, direction = 'outflow') =>
  rows.find((r) => r.wallet_id === wallet && r.amount === amount && r.direction === direction)!.id;
// Everything is tagged but the unpriced 0.3 and C's 5 POL; the approval moves nothing.
for (const t of [id(walletA, '1', 'inflow'), id(walletA, '0.2'), id(walletB, '0.2', 'inflow'), id(walletC, '0.3', 'inflow')])
  await s.json(['tx', 'tag', t, salary]);
// The import made A's 0.2 to B and B's 0.2 from A one-leg own transfers; the user unmatched them, so they are unmatched.
for (const t of [id(walletA, '0.2'), id(walletB, '0.2', 'inflow')]) await s.json(['transfers', 'unmatch', t]);
await s.json(['wallet', 'assert', walletA, '--token', 'ETH', '--balance', '0.5', '--at', '2024-01-31']);
await s.json(['wallet', 'assert', walletB, '--token', 'eth', '--balance', '0.25', '--at', '2024-01-31']);
// An e-mail export whose SMTP server is not there fails (DELIVERY_FAILED).
const mail = await s.txa(['export', 'create', '--format', 'csv', '--email', 'a@example.com'], {
  env: { TXA_SMTP_URL: 'smtp://127.0.0.1:1', TXA_NOW: '2024-01-20T00:00:00Z' },
});
expect(mail.exitCode).toBe(1);
const exportId = /exp_[0-9a-f]+/.exec(mail.stderr + mail.stdout)![0];

async function check(args: string[] = []) {
  const r = await s.txa(['check', '--json', ...args]);
  return { exitCode: r.exitCode, body: JSON.parse(r.stdout), stderr: r.stderr };
}

const ROW = {
  wallet_id: expect.any(String),
  wallet_label: expect.any(String),
  chain: expect.any(String),
  tx_hash: expect.any(String),
  timestamp: expect.any(String),
};

describe('txa check', () => {
  test('finds one of each kind: exit 1 and the JSON report of docs/check.md "`txa check`"', async () => {
    const { exitCode, body } = await check();
    expect(exitCode).toBe(1);
    expect(body).toEqual({
      success: true,
      data: {
        clean: false,
        findings: [
          {
            kind: 'untagged',
            count: 2,
            examples: [
              {
                ...ROW,
                transaction_id: id(walletA, '0.3'),
                wallet_label: 'A',
                token: 'ETH',
                amount: '0.3',
                direction: 'outflow',
                timestamp: '2024-01-06T12:00:00Z',
              },
              {
                ...ROW,
                transaction_id: id(walletC, '5.000000000000000001'),
                wallet_label: 'C',
                token: 'POL',
                amount: '5.000000000000000001',
                direction: 'outflow',
              },
            ],
          },
          { kind: 'unpriced', count: 1, examples: [{ ...ROW, transaction_id: id(walletA, '0.3'), token: 'ETH', amount: '0.3', direction: 'outflow' }] },
          {
            kind: 'unmatched_transfer',
            count: 4,
            examples: [
              {
                ...ROW,
                transaction_id: id(walletA, '0.3'),
                wallet_label: 'A',
                token: 'ETH',
                amount: '0.3',
                direction: 'outflow',
                timestamp: '2024-01-06T12:00:00Z',
                counterparty_wallet_id: walletC,
                counterparty_wallet_label: 'C',
              },
              {
                ...ROW,
                transaction_id: id(walletC, '0.3', 'inflow'),
                wallet_label: 'C',
                token: 'ETH',
                amount: '0.3',
                direction: 'inflow',
                timestamp: '2024-01-06T12:20:00Z',
                counterparty_wallet_id: walletA,
                counterparty_wallet_label: 'A',
              },
              {
                ...ROW,
                transaction_id: expect.any(String),
                token: 'ETH',
                amount: '0.2',
                direction: expect.any(String),
                counterparty_wallet_id: expect.any(String),
                counterparty_wallet_label: expect.any(String),
              },
              {
                ...ROW,
                transaction_id: expect.any(String),
                token: 'ETH',
                amount: '0.2',
                direction: expect.any(String),
                counterparty_wallet_id: expect.any(String),
                counterparty_wallet_label: expect.any(String),
              },
            ],
          },
          {
            kind: 'negative_balance',
            count: 1,
            examples: [
              {
                wallet_id: walletC,
                wallet_label: 'C',
                token: { symbol: 'POL', address: null },
                transaction_id: id(walletC, '5.000000000000000001'),
                timestamp: '2024-02-01T12:00:00Z',
                balance: '-5.000000000000000001',
              },
            ],
          },
          {
            kind: 'assertion_failed',
            count: 1,
            examples: [
              {
                assertion_id: expect.stringMatching(/^bal_/),
                wallet_id: walletB,
                wallet_label: 'B',
                token: { symbol: 'ETH', address: null },
                at: '2024-01-31',
                expected: '0.25',
                actual: '0.2',
                difference: '-0.05',
              },
            ],
          },
          {
            kind: 'failed_export',
            count: 1,
            examples: [
              {
                export_id: exportId,
                created_at: '2024-01-20T00:00:00Z',
                format: 'csv',
                report_type: null,
                error: { code: 'DELIVERY_FAILED', message: expect.any(String) },
              },
            ],
          },
          {
            // C's POL went out without a lot: its rows add up to less than its lots hold.
            kind: 'rollforward_difference',
            count: 1,
            examples: [
              {
                wallet_id: walletC,
                wallet_label: 'C',
                asset: 'POL',
                balance: '-5.000000000000000001',
                closing_quantity: '0',
                difference: '-5.000000000000000001',
              },
            ],
          },
        ],
      },
    });
    const unmatched = (body.data.findings[2].examples as { wallet_id: string; counterparty_wallet_id: string }[]).slice(2);
    expect(unmatched.map((e) => [e.wallet_id, e.counterparty_wallet_id]).sort()).toEqual(
      [
        [walletA, walletB],
        [walletB, walletA],
      ].sort(),
    );
  });

  test('--allow accepts kinds; with all of them allowed the ledger is clean and check exits 0', async () => {
    const some = await check(['--allow', 'untagged,unpriced']);
    expect([some.exitCode, some.body.data.findings.map((f: { kind: string }) => f.kind)]).toEqual([
      1,
      ['unmatched_transfer', 'negative_balance', 'assertion_failed', 'failed_export', 'rollforward_difference'],
    ]);
    const all = await check(['--allow', 'untagged,unpriced,unmatched_transfer,negative_balance,assertion_failed,failed_export,rollforward_difference']);
    expect([all.exitCode, all.body]).toEqual([0, { success: true, data: { clean: true, findings: [] } }]);
  });

  test('--allow repeated adds up, as --allow KIND,KIND does', async () => {
    const repeated = await check(['--allow', 'untagged', '--allow', 'unpriced,unmatched_transfer', '--allow', 'negative_balance,rollforward_difference']);
    expect(repeated.body.data.findings.map((f: { kind: string }) => f.kind)).toEqual(['assertion_failed', 'failed_export']);
  });

  test('--period looks at that period only; balances still run from the first row', async () => {
    const feb = await check(['--period', '2024-02']);
    expect(feb.body.data.findings.map((f: { kind: string; count: number }) => [f.kind, f.count])).toEqual([
      ['untagged', 1],
      ['negative_balance', 1],
      ['rollforward_difference', 1],
    ]);
    // March has no rows: C's difference is February's finding, and the empty month is one itself.
    const march = await check(['--period', '2024-03']);
    expect([march.exitCode, march.body.data]).toEqual([
      1,
      { clean: false, findings: [{ kind: 'empty_period', count: 1, examples: [{ start_date: '2024-03-01', end_date: '2024-03-31' }] }] },
    ]);
  });

  test('a corrected assertion passes', async () => {
    await s.json(['wallet', 'assert', walletB, '--token', 'ETH', '--balance', '0.2', '--at', '2024-01-31']);
    const { body } = await check(['--allow', 'untagged,unpriced,unmatched_transfer,negative_balance,failed_export,rollforward_difference']);
    expect(body.data).toEqual({ clean: true, findings: [] });
  });

  test('on a pipe: a row per kind and the examples in words; the summary on stderr', async () => {
    const r = await s.txa(['check', '--period', '2024-02']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('untagged\t1\tFAILED\nunpriced\t0\tok\n');
    expect(r.stdout).toContain('C POL is -5.000000000000000001 after ');
    expect(r.stdout).toContain('C POL: the rows add up to -5.000000000000000001, the lots hold 0 (difference -5.000000000000000001)');
    expect(r.stderr).toBe('check: 1 untagged, 1 negative_balance, 1 rollforward_difference');
  });

  test('an unknown kind in --allow is a usage error naming the kinds', async () => {
    const r = await s.txa(['check', '--allow', 'untagged,typos']);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      expect.stringMatching(
        /^error: USAGE_ERROR \(allow\): --allow must be a comma-separated list of untagged, unpriced, .* \('typos' is none of them\), got 'untagged,typos'/,
      ),
    ]);
  });

  test('legs of matched own transfers (docs/accounting.md "Own transfers") are neither unmatched nor untagged', async () => {
    await s.json(['transfers', 'match', id(walletA, '0.2'), id(walletB, '0.2', 'inflow')]);
    await s.json(['transfers', 'match', id(walletA, '0.3'), id(walletC, '0.3', 'inflow')]);
    const { body } = await check(['--allow', 'unpriced,negative_balance,failed_export,rollforward_difference']);
    // A's 0.3 is a leg now, so it needs no tag; C's POL outflow still does.
    expect(body.data.findings.map((f: { kind: string; count: number }) => [f.kind, f.count])).toEqual([['untagged', 1]]);
  });
});
