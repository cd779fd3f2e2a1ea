/** `txa wallet add`, `wallet list` and `tx list` on the chains of docs/sync.md "Chains and sources", as a user runs them. */
import { beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../helpers/cli.js';

let s: Sandbox;

beforeAll(async () => {
  s = sandbox();
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Chains'])).data.id;
});

describe('chains', () => {
  it('adds wallets on the new chains and lists them by chain', async () => {
    for (const [i, chain] of ['base', 'zksync', 'gnosis'].entries()) {
      const w = await s.json(['wallet', 'add', '--address', `0x${String(i + 1).repeat(40)}`, '--chain', chain]);
      expect(w.data).toMatchObject({ chain, balance: { native: '0' } });
    }
    const listed = await s.json(['wallet', 'list', '--chain', 'zksync']);
    expect(listed.data.map((w: { chain: string }) => w.chain)).toEqual(['zksync']);
    expect((await s.json(['tx', 'list', '--chain', 'gnosis'])).data).toEqual([]);
  });

  it('refuses an unknown chain with USAGE_ERROR (chain) listing every known one, exit 2 (docs/cli.md)', async () => {
    const r = await s.txa(['wallet', 'add', '--address', `0x${'9'.repeat(40)}`, '--chain', 'solana']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^error: USAGE_ERROR \(chain\): --chain must be one of ethereum, polygon, arbitrum, bsc, base, optimism, linea, avalanche, gnosis, scroll, zksync, blast, mantle, celo, bitcoin, got 'solana'/,
    );
    const j = await s.txa(['wallet', 'add', '--address', `0x${'9'.repeat(40)}`, '--chain', 'solana', '--json']);
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'USAGE_ERROR', field: 'chain' });
    const q = await s.txa(['tx', 'list', '--chain', 'solana']);
    expect(q.stderr).toMatch(/USAGE_ERROR \(chain\): --chain must be one of .*celo, bitcoin, got 'solana'/);
  });
});
