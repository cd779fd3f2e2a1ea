/**
 * Own transfers, history and manual values through the built CLI, as a user runs it: the demo's
 * own transfers are matched, unmatching and rematching work, bad input gets the API's code
 * and field on stderr and exit 1.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { pdfText } from '../pdf/helpers.js';
import type { Transaction, Transfer } from '../../src/core/types.js';

let sb: Sandbox;
const ACME = ['-w', 'ws_demo_acme'];

beforeAll(async () => {
  sb = sandbox();
  const demo = await sb.txa(['demo', '--dir', 'reports']);
  expect(demo.exitCode, demo.stderr).toBe(0);
}, 120_000);

const listAll = async (args: string[]): Promise<Transaction[]> => (await sb.json([...ACME, 'tx', 'list', '--all', ...args])).data;

describe('the demo ledger', () => {
  it('has every move between its wallets matched as an own transfer, and nothing left to confirm', async () => {
    const all: Transfer[] = (await sb.json([...ACME, 'transfers', 'list', '--limit', '200'])).data;
    // The demo's wallets are on four chains: every own transfer is a bridge, confirmed by the demo's rule.
    expect(all.length).toBeGreaterThan(50);
    for (const t of all) {
      expect(t).toMatchObject({ status: 'matched', kind: 'bridge', matched_by: 'rule' });
      const [out, into] = t.legs;
      expect([out!.direction, into!.direction]).toEqual(['outflow', 'inflow']);
      expect(out!.wallet_id).not.toBe(into!.wallet_id);
      expect(into!.token.symbol).toBe(out!.token.symbol);
      expect(out!.transfer).toEqual({ id: t.id, counterpart_id: into!.id, kind: 'bridge', matched_by: 'rule' });
    }
    const bridgeRows = await listAll(['--internal', 'true']);
    expect(bridgeRows).toHaveLength(all.length * 2);
    expect(bridgeRows.every((r) => r.type === 'bridge')).toBe(true);
    expect((await listAll(['--internal', 'false'])).some((r) => r.type === 'bridge')).toBe(false);
    expect((await sb.json([...ACME, 'transfers', 'list', '--status', 'candidate'])).data).toEqual([]);
  });

  it('leaves its own transfers out of the tax report: proceeds fall short of the total outflow by at least their value, and both PDFs say so with the count', async () => {
    const matched: Transfer[] = (await sb.json([...ACME, 'transfers', 'list', '--status', 'matched', '--limit', '200'])).data;
    expect(matched.length).toBeGreaterThan(0);
    const cents = (v: number | null) => BigInt(Math.round((v ?? 0) * 100));
    const sentCents = matched.reduce((sum, t) => sum + cents(t.legs[0]!.fiat_value), 0n);
    expect(sentCents).toBeGreaterThan(0n);

    const outflowCents = cents((await sb.json([...ACME, 'tx', 'list', '--limit', '1'])).summary.total_outflow);
    const taxFile = join(sb.dir, 'tax.json');
    expect((await sb.txa([...ACME, 'export', 'create', '--format', 'json', '--report-type', 'tax', '--out', taxFile])).exitCode).toBe(0);
    const lots: { proceeds: number | null }[] = JSON.parse(readFileSync(taxFile, 'utf8')).lots;
    const proceedsCents = lots.reduce((sum, l) => sum + cents(l.proceeds), 0n);
    expect(proceedsCents).not.toBe(outflowCents);
    expect(outflowCents - proceedsCents).toBeGreaterThanOrEqual(sentCents);

    const legs = matched.length * 2;
    const taxPdf = join(sb.dir, 'tax.pdf');
    expect((await sb.txa([...ACME, 'export', 'create', '--format', 'pdf', '--report-type', 'tax', '--out', taxPdf])).exitCode).toBe(0);
    expect(pdfText(taxPdf).join('\n')).toContain(
      `${legs} own-transfer leg(s) are left out of these tables: moving between own wallets is neither income nor expense.`,
    );
    expect(pdfText(join(sb.dir, 'reports', 'summary.pdf')).join('\n')).toContain(
      `${legs} own-transfer leg(s) are left out of every total and table: moving between own wallets is neither inflow nor outflow.`,
    );
  });

  it('unmatching a bridge rejects it (never proposed again); matching it by hand confirms it as the user’s', async () => {
    const [first] = (await sb.json([...ACME, 'transfers', 'list', '--status', 'matched', '--limit', '1'])).data as Transfer[];
    const [out, into] = first!.legs;
    expect((await sb.txa([...ACME, 'transfers', 'unmatch', into!.id])).exitCode).toBe(0);
    expect((await sb.json([...ACME, 'tx', 'get', out!.id])).data.transfer).toBeNull();
    const proposed: Transfer[] = (await sb.json([...ACME, 'transfers', 'list', '--status', 'candidate'])).data;
    expect(proposed.map((t) => t.legs.map((l) => l.id))).not.toContainEqual([out!.id, into!.id]);
    const matched = (await sb.json([...ACME, 'transfers', 'match', out!.id, into!.id])).data as Transfer;
    expect(matched).toMatchObject({ kind: 'bridge', matched_by: 'user' });
    const history = (await sb.json([...ACME, 'tx', 'history', out!.id])).data;
    expect(history.map((h: { event: string }) => h.event)).toEqual([
      'transaction.created',
      'transaction.updated',
      'transaction.updated',
      'transaction.updated',
    ]);
    expect(history[0].source).toEqual({
      file_name: 'acme.json',
      sha256: createHash('sha256')
        .update(readFileSync(join(import.meta.dirname, '../../fixtures/demo/acme.json')))
        .digest('hex'),
      format: 'json',
    });
    expect(history.at(-1)).toMatchObject({ actor: 'cli', changes: { transfer: { old: null, new: { id: matched.id, matched_by: 'user' } } } });
    const text = await sb.txa([...ACME, 'tx', 'history', out!.id]);
    expect(text.stdout).toContain(`transfer: — → bridge transfer with ${into!.id}, matched by user`);
  });
});

describe('bad input', () => {
  it('unmatching a row that is not matched: TRANSFER_NOT_FOUND, exit 1, nothing changed', async () => {
    const [row] = await listAll(['--internal', 'false', '--limit', '1']);
    const before = await sb.json([...ACME, 'events', 'list', '--limit', '1']);
    const r = await sb.txa([...ACME, 'transfers', 'unmatch', row!.id]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: TRANSFER_NOT_FOUND \(tx_id\): transaction tx_\w+ is not a leg of an own transfer/);
    expect((await sb.json([...ACME, 'events', 'list', '--limit', '1'])).data).toEqual(before.data);
  });

  it('matching two outflows or rows of two workspaces: INVALID_TRANSFER (counterpart_id)', async () => {
    // Outflows that move something: an approval (amount 0) cannot be a leg at all.
    const outs = await listAll(['--internal', 'false', '--direction', 'outflow', '--token', 'USDC', '--min-amount', '1']);
    const twoOut = await sb.txa([...ACME, 'transfers', 'match', outs[0]!.id, outs[1]!.id, '--json']);
    expect(twoOut.exitCode).toBe(1);
    expect(JSON.parse(twoOut.stderr).error).toMatchObject({ code: 'INVALID_TRANSFER', field: 'counterpart_id' });
    const personal = (await sb.json(['-w', 'ws_demo_personal', 'tx', 'list', '--direction', 'inflow', '--limit', '1'])).data[0];
    const foreign = await sb.txa([...ACME, 'transfers', 'match', outs[0]!.id, personal.id]);
    expect(foreign.stderr).toMatch(/^error: INVALID_TRANSFER \(counterpart_id\): /);
  });

  it('--fiat-value negative, with 3 decimals or not a number: USAGE_ERROR (fiat-value), exit 2 (docs/cli.md); a good one is exact and manual', async () => {
    const [row] = await listAll(['--limit', '1']);
    for (const bad of ['-1', '1.005', 'abc', '12,50']) {
      const r = await sb.txa([...ACME, 'tx', 'update', row!.id, '--fiat-value', bad]);
      expect([r.exitCode, r.stderr.split(':')[0]], bad).toEqual([2, 'error']);
      expect(r.stderr).toBe(`error: USAGE_ERROR (fiat-value): --fiat-value must be a number of at least 0 with at most 2 decimals, or none, got '${bad}'`);
    }
    const ok = (await sb.json([...ACME, 'tx', 'update', row!.id, '--fiat-value', '123.45'])).data;
    expect([ok.fiat_value, ok.fiat_value_source]).toEqual([123.45, 'manual']);
  });
});

describe('a user match holds to what can be a leg', () => {
  let s: Sandbox;
  const rowId: Record<string, string> = {};

  beforeAll(async () => {
    s = sandbox();
    s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Legs'])).data.id;
    const a = (await s.json(['wallet', 'add', '--address', `0x${'a'.repeat(40)}`, '--chain', 'ethereum', '--label', 'A'])).data.id;
    const b = (await s.json(['wallet', 'add', '--address', `0x${'b'.repeat(40)}`, '--chain', 'ethereum', '--label', 'B'])).data.id;
    const eth = { symbol: 'ETH', address: null, decimals: 18 };
    const row = (hash: string, wallet_id: string, direction: string, amount: string, type = 'transfer') => ({
      tx_hash: hash,
      wallet_id,
      chain: 'ethereum',
      token: eth,
      amount,
      direction,
      type,
      timestamp: '2025-03-01T10:00:00Z',
      from_address: `0x${'c'.repeat(40)}`,
      to_address: `0x${'d'.repeat(40)}`,
      fiat_value: 10,
    });
    writeFileSync(
      join(s.dir, 'rows.json'),
      JSON.stringify([
        row('0x01', a, 'outflow', '1'),
        row('0x02', b, 'inflow', '1'),
        row('0x03', a, 'outflow', '0.01', 'fee'),
        row('0x04', a, 'outflow', '0', 'contract_call'),
      ]),
    );
    expect((await s.txa(['import', 'rows.json'])).exitCode).toBe(0);
    for (const t of (await s.json(['tx', 'list'])).data as Transaction[]) rowId[t.tx_hash] = t.id;
    await s.json(['tx', 'update', rowId['0x01']!, '--spam', 'true']);
  }, 30_000);

  it.each([
    ['0x01', '0x02', 'transaction_id', 'is marked spam'],
    ['0x02', '0x01', 'counterpart_id', 'is marked spam'],
    ['0x03', '0x02', 'transaction_id', 'is a fee'],
    ['0x04', '0x02', 'transaction_id', 'moves nothing'],
  ])('%s with %s: INVALID_TRANSFER (%s), %s; nothing changes', async (one, other, field, why) => {
    const before = (await s.json(['events', 'list'])).data;
    const r = await s.txa(['transfers', 'match', rowId[one]!, rowId[other]!]);
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `error: INVALID_TRANSFER (${field}): transaction ${rowId[field === 'transaction_id' ? one : other]} ${why}: it cannot be a leg of an own transfer`,
    );
    expect((await s.json(['events', 'list'])).data).toEqual(before);
    expect((await s.json(['transfers', 'list'])).data).toEqual([]);
  });

  it('once the spam mark is cleared, the same pair matches', async () => {
    await s.json(['tx', 'update', rowId['0x01']!, '--spam', 'false']);
    const t = (await s.json(['transfers', 'match', rowId['0x01']!, rowId['0x02']!])).data;
    expect(t).toMatchObject({ kind: 'internal', matched_by: 'user' });
  });
});
