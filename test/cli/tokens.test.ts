/**
 * Spam through the CLI as a user runs it (the built bin/txa on a real ledger file): the explorer
 * CSV exports of a history with spam are imported, the spam rows are kept but left out of lists,
 * totals and exports unless asked for, and `txa tokens spam|unspam|list` turn the rows of a token,
 * with `transaction.updated` events, leaving the rows a person decided on alone.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { BAIT_TOKEN, FAKE, FAKE_USDT, WALLET, csvFiles, hash, history, withSpam } from '../helpers/sync-history.js';

let s: Sandbox;
let wallet: string;

beforeEach(async () => {
  s = sandbox();
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Spam'])).data.id;
  wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
  const files = csvFiles(withSpam(history()));
  for (const name of ['normal', 'tokens'] as const) {
    writeFileSync(join(s.dir, `${name}.csv`), files[name]);
    await s.json(['import', `${name}.csv`, '--wallet', wallet]);
  }
});

interface Tx {
  id: string;
  tx_hash: string;
  token: { address: string | null };
  spam: boolean;
}

const list = async (...flags: string[]) =>
  s.json<{ data: Tx[]; summary: { transaction_count: number; total_inflow: number } }>(['tx', 'list', '--limit', '200', ...flags]);
const rowOf = async (label: string) => (await list('--include-spam')).data.find((t) => t.tx_hash === hash(label) && t.token.address !== null)!;
const spamHashes = async () =>
  (await list('--include-spam')).data
    .filter((t) => t.spam)
    .map((t) => t.tx_hash)
    .sort();
const updatedEvents = async () =>
  (
    await s.json<{ data: { payload: { transaction: { id: string }; changes: Record<string, { old: unknown; new: unknown }> } }[] }>([
      'events',
      'list',
      '--type',
      'transaction.updated',
      '--limit',
      '200',
    ])
  ).data;
const token = (t: { contract: string }) => `ethereum:${t.contract}`;

describe('spam rows of an import', () => {
  it('are kept and flagged, and left out of tx list, its totals and exports unless --include-spam', async () => {
    expect(await spamHashes()).toEqual([hash('fake-usdt'), hash('poison'), hash('reward')].sort());
    const fake = await rowOf('fake-usdt');
    // A value on a spam row (as a price fill would give a copied token) counts nowhere by default.
    await s.json(['tx', 'update', fake.id, '--fiat-value', '2500']);
    const [plain, all] = [await list(), await list('--include-spam')];
    expect(plain.data.map((t) => t.tx_hash)).not.toContain(hash('fake-usdt'));
    expect(all.summary.transaction_count - plain.summary.transaction_count).toBe(3);
    expect(all.summary.total_inflow - plain.summary.total_inflow).toBe(2500);
    const out = join(s.dir, 'rows.json');
    await s.json(['export', 'create', '--format', 'json', '--out', out]);
    expect(readFileSync(out, 'utf8')).not.toContain(hash('fake-usdt'));
    await s.json(['export', 'create', '--format', 'json', '--out', out, '--include-spam']);
    expect(readFileSync(out, 'utf8')).toContain(hash('fake-usdt'));
  });
});

describe('txa tokens', () => {
  it('spam flags every row of the token with an event; unspam flips them back; list shows the verdicts', async () => {
    const marked = await s.json(['tokens', 'spam', token(FAKE)]);
    expect(marked).toEqual({ success: true, data: [{ chain: 'ethereum', address: FAKE.contract, spam: true, marked_at: expect.any(String), changed: 1 }] });
    const row = await rowOf('spam');
    expect(row.spam).toBe(true);
    expect((await updatedEvents()).filter((e) => e.payload.transaction.id === row.id).map((e) => e.payload.changes.spam)).toEqual([{ old: false, new: true }]);
    // Again: nothing left to flip.
    expect((await s.json(['tokens', 'spam', token(FAKE)])).data[0].changed).toBe(0);

    const unmarked = await s.json(['tokens', 'unspam', token(FAKE), token(BAIT_TOKEN)]);
    expect(unmarked.data.map((m: { address: string; spam: boolean; changed: number }) => [m.address, m.spam, m.changed])).toEqual([
      [FAKE.contract, false, 1],
      [BAIT_TOKEN.contract, false, 1],
    ]);
    expect(await spamHashes()).toEqual([hash('fake-usdt'), hash('poison')].sort());
    expect((await updatedEvents()).filter((e) => e.payload.transaction.id === row.id).map((e) => e.payload.changes.spam)).toEqual([
      { old: true, new: false },
      { old: false, new: true },
    ]);
    const listed = await s.json(['tokens', 'list']);
    expect(listed.data.map((m: { address: string; spam: boolean }) => [m.address, m.spam])).toEqual([
      [BAIT_TOKEN.contract, false],
      [FAKE.contract, false],
    ]);
  });

  it('leaves the rows a person decided on alone, either way', async () => {
    // Unflagged by hand: marking its token does not flag it again.
    const fake = await rowOf('fake-usdt');
    await s.json(['tx', 'update', fake.id, '--spam', 'false']);
    expect((await s.json(['tokens', 'spam', token(FAKE_USDT)])).data[0].changed).toBe(0);
    expect((await rowOf('fake-usdt')).spam).toBe(false);
    // Flagged by hand, even where its token's mark had flagged it already: unspamming the token does not unflag it.
    const other = await rowOf('spam');
    await s.json(['tokens', 'spam', token(FAKE)]);
    await s.json(['tx', 'update', other.id, '--spam', 'true']);
    expect((await s.json(['tokens', 'unspam', token(FAKE)])).data[0].changed).toBe(0);
    expect((await rowOf('spam')).spam).toBe(true);
    // Poisoning judges the transfer, not the token: unspamming USDC leaves it flagged.
    await s.json(['tokens', 'unspam', 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48']);
    expect((await rowOf('poison')).spam).toBe(true);
  });

  it('refuses a token that is not CHAIN:ADDRESS, naming the field, and an unknown chain with the chain list; nothing changes', async () => {
    const bad = async (arg: string) => {
      const r = await s.txa(['tokens', 'spam', arg, token(FAKE), '--json']);
      return { exit: r.exitCode, error: JSON.parse(r.stderr).error };
    };
    expect(await bad('nonsense')).toMatchObject({ exit: 1, error: { code: 'INVALID_FIELD', field: 'token' } });
    expect(await bad('solana:0x1234567890abcdef1234567890abcdef12345678')).toMatchObject({
      exit: 1,
      error: { code: 'INVALID_FIELD', field: 'chain', message: expect.stringContaining('ethereum, polygon, arbitrum, bsc, base') },
    });
    expect(await bad('ethereum:0x12')).toMatchObject({ exit: 1, error: { code: 'INVALID_FIELD', field: 'address' } });
    expect((await s.json(['tokens', 'list'])).data).toEqual([]);
    expect((await rowOf('spam')).spam).toBe(false);
    const none = await s.txa(['tokens', 'spam']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('USAGE_ERROR');
  });

  it('is local only', async () => {
    const r = await s.txa(['tokens', 'list', '--base-url', 'http://127.0.0.1:9', '--json']);
    expect(JSON.parse(r.stderr).error.code).toBe('LOCAL_ONLY');
  });
});
