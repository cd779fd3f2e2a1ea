/**
 * `txa wallet assert` / `txa wallet assertions` on the built binary: exact balances, the token by
 * symbol in any case (or by address when two tokens share a symbol), and bad input refused with
 * its code and field while nothing changes.
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Assert Co'])).data.id;
const ADDRESS = `0x${'1'.repeat(40)}`;
const wallet = (await s.json(['wallet', 'add', '--address', ADDRESS, '--chain', 'ethereum', '--label', 'Main'])).data.id as string;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const FAKE = `0x${'b'.repeat(40)}`;
const rows = [
  { symbol: 'ETH', address: null, decimals: 18, amount: '2.000000000000000001' },
  { symbol: 'USDC', address: USDC, decimals: 6, amount: '10.5' },
  { symbol: 'USDC', address: FAKE, decimals: 6, amount: '999' },
].map((t, i) => ({
  tx_hash: `0x${String(i + 1).padStart(64, '0')}`,
  chain: 'ethereum',
  from_address: `0x${'5'.repeat(40)}`,
  to_address: ADDRESS,
  token: { symbol: t.symbol, address: t.address, decimals: t.decimals },
  amount: t.amount,
  fiat_value: null,
  direction: 'inflow',
  type: 'transfer',
  timestamp: '2024-01-15T10:00:00Z',
}));
writeFileSync(join(s.dir, 'rows.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n'));
expect((await s.txa(['import', 'rows.ndjson', '--wallet', wallet, '--format', 'ndjson'])).exitCode).toBe(0);

const assertions = async () => (await s.json(['wallet', 'assertions'])).data;

describe('txa wallet assert', () => {
  test('records an exact balance at the end of a UTC day; the same wallet, token and day again replaces it', async () => {
    const first = (await s.json(['wallet', 'assert', wallet, '--token', 'eth', '--balance', '2.0000000000000000010', '--at', '2024-01-31'])).data;
    expect(first).toEqual({
      id: expect.stringMatching(/^bal_/),
      wallet_id: wallet,
      wallet_label: 'Main',
      token: { symbol: 'ETH', address: null },
      balance: '2.000000000000000001',
      at: '2024-01-31',
      created_at: expect.any(String),
    });
    const again = (await s.json(['wallet', 'assert', wallet, '--token', 'ETH', '--balance', '2', '--at', '2024-01-31'])).data;
    expect([again.id, again.balance]).toEqual([first.id, '2']);
    expect(await assertions()).toEqual([again]);
  });

  test('a symbol two tokens share is refused; their contract address picks one', async () => {
    const r = await s.txa(['wallet', 'assert', wallet, '--token', 'usdc', '--balance', '10.5', '--at', '2024-01-31']);
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringContaining(`error: INVALID_FIELD (token): 'usdc' names several tokens of the wallet`)]);
    const a = (await s.json(['wallet', 'assert', wallet, '--token', USDC.toUpperCase().replace('0X', '0x'), '--balance', '10.5', '--at', '2024-01-31'])).data;
    expect(a.token).toEqual({ symbol: 'USDC', address: USDC });
    expect((await s.json(['wallet', 'assertions', wallet])).data).toHaveLength(2);
  });

  // A value no flag takes is a usage error (exit 2); one the token or wallet refuses is INVALID_FIELD (exit 1) (docs/cli.md).
  test.each([
    ['a negative balance', ['--token', 'ETH', '--balance', '-1', '--at', '2024-02-01'], 'USAGE_ERROR (balance)', 2],
    ['a balance that is not a number', ['--token', 'ETH', '--balance', '1,5', '--at', '2024-02-01'], 'USAGE_ERROR (balance)', 2],
    ["more decimals than the token's", ['--token', USDC, '--balance', '1.0000001', '--at', '2024-02-01'], 'INVALID_FIELD (balance)', 1],
    ['a day that does not exist', ['--token', 'ETH', '--balance', '1', '--at', '2024-02-30'], 'USAGE_ERROR (at)', 2],
    ['a date in another format', ['--token', 'ETH', '--balance', '1', '--at', '01/02/2024'], 'USAGE_ERROR (at)', 2],
    ['a token the wallet never held', ['--token', 'DAI', '--balance', '1', '--at', '2024-02-01'], 'INVALID_FIELD (token)', 1],
  ])('%s: a clear error with code and field, and nothing changes', async (_name, flags, error, exit) => {
    const before = await assertions();
    const r = await s.txa(['wallet', 'assert', wallet, ...(flags as string[])]);
    expect([r.exitCode, r.stderr]).toEqual([exit, expect.stringContaining(`error: ${error}: `)]);
    expect(await assertions()).toEqual(before);
  });

  test('an unknown wallet is WALLET_NOT_FOUND, for assert and assertions', async () => {
    const r = await s.txa(['wallet', 'assert', 'wal_nope', '--token', 'ETH', '--balance', '1', '--at', '2024-02-01']);
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringContaining('error: WALLET_NOT_FOUND: ')]);
    expect((await s.txa(['wallet', 'assertions', 'wal_nope'])).exitCode).toBe(1);
  });

  test('is local only', async () => {
    const r = await s.txa([
      'wallet',
      'assert',
      wallet,
      '--token',
      'ETH',
      '--balance',
      '1',
      '--at',
      '2024-02-01',
      '--remote',
      '--base-url',
      'http://127.0.0.1:9',
    ]);
    expect([r.exitCode, r.stderr]).toEqual([2, expect.stringContaining('error: LOCAL_ONLY: ')]);
  });
});

describe('txa wallet unassert', () => {
  test('removes one assertion by id, so a mistyped one stops failing txa check; the others stay', async () => {
    const wrong = (await s.json(['wallet', 'assert', wallet, '--token', 'ETH', '--balance', '7', '--at', '2024-03-31'])).data;
    const before = await assertions();
    // The ids of the assertions txa check finds failing.
    const failing = async () => {
      const findings = JSON.parse((await s.txa(['check', '--json'])).stdout).data.findings as { kind: string; examples: { assertion_id: string }[] }[];
      return (findings.find((f) => f.kind === 'assertion_failed')?.examples ?? []).map((e) => e.assertion_id);
    };
    expect(await failing()).toContain(wrong.id);
    expect(await s.json(['wallet', 'unassert', wrong.id])).toEqual({ success: true, data: { id: wrong.id, deleted: true } });
    expect(await assertions()).toEqual(before.filter((a: { id: string }) => a.id !== wrong.id));
    expect(await failing()).not.toContain(wrong.id);
  });

  test('an unknown id, or one of another workspace, is ASSERTION_NOT_FOUND and nothing changes', async () => {
    const other = (await s.json(['workspace', 'create', 'Other Co'])).data.id;
    const mine = (await assertions())[0].id;
    const before = await assertions();
    for (const args of [
      ['wallet', 'unassert', 'bal_nope'],
      ['-w', other, 'wallet', 'unassert', mine],
    ]) {
      const r = await s.txa(args);
      expect([r.exitCode, r.stdout, r.stderr], args.join(' ')).toEqual([
        1,
        '',
        expect.stringMatching(/^error: ASSERTION_NOT_FOUND: assertion bal_\w+ not found\n/),
      ]);
    }
    expect(await assertions()).toEqual(before);
  });
});
