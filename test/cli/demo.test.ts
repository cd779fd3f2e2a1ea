import { describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

describe('txa demo', () => {
  it('loads both workspaces, sets the default, prints the tour and writes CSV, JSON and PDF reports; a second run imports nothing', async () => {
    const sb = sandbox();
    const first = await sb.txa(['demo', '--dir', 'reports']);
    expect(first.stderr).toContain('Created workspace ws_demo_acme "Acme Treasury" (pro): imported 2400 transactions.');
    expect(first.stderr).toContain('Created workspace ws_demo_personal "Personal" (free): imported 380 transactions.');
    expect(first.stderr).toContain('it now uses ws_demo_acme');
    expect(first.exitCode).toBe(0);

    // Not a TTY: tables are tab-separated rows without headers.
    const lines = first.stdout.split('\n');
    const txRows = lines.filter((l) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\ttx_/.test(l));
    expect(txRows).toHaveLength(10);
    expect(txRows[0]!.startsWith('2026-10-31')).toBe(true);
    const tagRows = lines.filter((l) => l.startsWith('tag_'));
    expect(tagRows.map((l) => l.split('\t')[1])).toEqual(expect.arrayContaining(['Café & meals', '日本 vendor', 'Payroll', 'Internal transfer']));
    expect(new Set(tagRows.map((l) => l.split('\t')[2]))).toEqual(new Set(['income', 'expense', 'neutral']));
    expect(first.stdout).toContain('Summary of 2026-10, the last full month');
    expect(first.stdout).toContain('  txa tx list --period 2026-10');
    expect(first.stdout).toContain('  txa tags list');

    // The month's totals in the tour are those of `tx list` for that month, through the default workspace.
    const month = await sb.json(['tx', 'list', '--period', '2026-10']);
    const tourCount = lines.find((l) => l.startsWith('transactions\t'))!.split('\t')[1];
    expect(Number(tourCount)).toBe(month.summary.transaction_count);
    expect(month.summary.transaction_count).toBeGreaterThan(0);
    const tags = await sb.json(['tags', 'list']);
    expect(tags.data).toHaveLength(10);

    const dir = join(sb.dir, 'reports');
    expect(readFileSync(join(dir, 'transactions.csv'), 'utf8').split('\n')[0]).toContain('tx_hash');
    expect(JSON.parse(readFileSync(join(dir, 'transactions.json'), 'utf8')).transactions).toHaveLength(2400);
    expect(readFileSync(join(dir, 'summary.pdf')).subarray(0, 5).toString()).toBe('%PDF-');

    const again = await sb.json(['demo', '--dir', 'reports']);
    expect(again.success).toBe(true);
    expect(again.data.workspace_id).toBe('ws_demo_acme');
    expect(again.data.imported).toBe(0);
    expect(again.data.workspaces.map((w: any) => [w.id, w.tier, w.imported, w.duplicates])).toEqual([
      ['ws_demo_acme', 'pro', 0, 2400],
      ['ws_demo_personal', 'free', 0, 380],
    ]);
    expect(again.data.files.map((f: any) => [f.format, f.report_type])).toEqual([
      ['csv', undefined],
      ['json', undefined],
      ['pdf', 'summary'],
    ]);
    for (const f of again.data.files) expect(statSync(f.path).size).toBe(f.bytes);
    const list = await sb.json(['tx', 'list', '--limit', '1']);
    expect(list.pagination.total).toBe(2400);

    // The books look real: no wallet holds less than nothing, in any token or in value.
    for (const workspace of ['ws_demo_acme', 'ws_demo_personal']) {
      const wallets = await sb.json(['-w', workspace, 'wallet', 'list']);
      expect(wallets.data.length).toBeGreaterThan(1);
      for (const w of wallets.data) {
        expect(w.balance.native.startsWith('-'), `${w.label} native`).toBe(false);
        expect(Number(w.balance.native), `${w.label} native`).toBeGreaterThan(0);
        expect(w.balance.fiat_value, `${w.label} value`).toBeGreaterThan(0);
        for (const t of w.balance.tokens) {
          expect(t.balance.startsWith('-'), `${w.label} ${t.symbol}`).toBe(false);
          if (t.fiat_value !== null) expect(t.fiat_value, `${w.label} ${t.symbol}`).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('keeps an existing default workspace and prints the commands with -w', async () => {
    const sb = sandbox();
    const mine = await sb.json(['workspace', 'create', 'Mine']);
    await sb.json(['workspace', 'use', mine.data.id]);
    const r = await sb.txa(['demo', '--dir', 'reports']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('now uses');
    expect(r.stdout).toContain('  txa -w ws_demo_acme tx list --period 2026-10');
    expect((await sb.json(['tags', 'list'])).data).toEqual([]);
  });

  it('refuses a remote backend', async () => {
    const sb = sandbox();
    const r = await sb.txa(['demo', '--base-url', 'http://127.0.0.1:9']);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('LOCAL_ONLY');
  });
});
