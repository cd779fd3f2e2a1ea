/**
 * Issue 24, item 6: at 80 columns. Small amounts keep their magnitude (`-0.000097…`, never
 * `-0.00…`); a timestamp gives way a whole form at a time, so no width is left unused; `tx list`
 * keeps TAGS, then WALLET, longest; help examples and long lines wrap at word boundaries.
 */
import { describe, expect, it } from 'vitest';
import { fitColumns, fitRows, tableWidth, type Column } from '../../../src/cli/table-fit.js';
import { examplesText, wrapWords } from '../../../src/cli/examples.js';

describe('fitting a table', () => {
  it('an amount below 1 keeps its first two significant digits at the hard limit', () => {
    const cols: Column[] = [{ header: 'ID' }, { header: 'AMOUNT', fit: 'decimal', align: 'right' }];
    const rows = [
      ['x'.repeat(60), '-0.000097123456'],
      ['x'.repeat(60), '+12.5'],
    ];
    const layout = fitColumns(cols, rows, 72);
    const shown = fitRows(cols, rows, layout).map((r) => r[1]);
    expect(shown).toEqual(['-0.000097…', '+12.5']);
  });

  it('a timestamp gives way by whole forms, and what it gives beyond the need goes back to a label', () => {
    const cols: Column[] = [{ header: 'DATE', fit: 'date' }, { header: 'ID' }, { header: 'LABEL', fit: 'end' }];
    const rows = [['2025-03-01 10:00:00', 'tx_0123456789abcdef01234567', 'Treasury Safe, main']];
    // Natural: 19 + 27 + 19 and two gaps of 2 = 69, 21 too wide at 48. The label gives 9 (to 10), the
    // seconds go (3), the label 4 more (to 6); the time of day goes whole (6), one more than needed:
    // the label gets it back (7).
    const layout = fitColumns(cols, rows, 48);
    expect(tableWidth(layout.widths)).toBe(48);
    expect(fitRows(cols, rows, layout)[0]).toEqual(['2025-03-01', 'tx_0123456789abcdef01234567', 'Treasu…']);
  });

  // The borderless table (docs/cli.md "Tables"): at 80 columns TAGS shows, the day without its
  // time; at 100 WALLET and CHAIN too. Only TYPE hides.
  it.each([
    [80, /^DATE +ID +AMOUNT +TOKEN +VALUE +TAGS$/, 'WALLET, CHAIN, TYPE'],
    [100, /^DATE +ID +WALLET +CHAIN +AMOUNT +TOKEN +VALUE +TAGS$/, 'TYPE'],
  ])("tx list's columns at %i: TAGS shows, the id stays whole", async (width, header, hidden) => {
    const { printTransactions } = await import('../../../src/cli/views.js');
    let out = '';
    let err = '';
    const tty = { isTTY: true, columns: width, write: (t: string) => ((out += t), true) };
    const { Output } = await import('../../../src/cli/output.js');
    const o = new Output({ json: false, color: false, streams: { stdout: tty, stderr: { write: (t: string) => ((err += t), true) } } });
    const tx = (id: string, amount: string, tags: string[]) => ({
      id,
      timestamp: '2026-10-31T20:42:11Z',
      wallet_label: 'Treasury Safe',
      chain: 'ethereum',
      type: 'transfer',
      amount,
      direction: 'inflow',
      token: { symbol: 'ETH', address: null, decimals: 18 },
      fiat_value: 215.99,
      tags: tags.map((name, i) => ({ id: `tag_${i}`, name })),
    });
    printTransactions(o, [
      tx('tx_057cbc84d475a9c551d077ca', '0.063128', ['Staking rewards']),
      tx('tx_2107ef85e8849e7721493acf', '0.000097667166', []),
    ] as never[]);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(header);
    expect(lines[1]).toContain('tx_057cbc84d475a9c551d077ca');
    expect(lines[1]).toMatch(/Staking r/);
    expect(err).toBe(`(hidden to fit: ${hidden}; --json shows all)\n`);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
  });
});

describe('wallet list at 80 columns', () => {
  it('keeps CHAIN, which says what NATIVE is a balance of; the address hides first', async () => {
    const { printWallets } = await import('../../../src/cli/views.js');
    const { Output } = await import('../../../src/cli/output.js');
    let out = '';
    let err = '';
    const o = new Output({
      json: false,
      color: false,
      streams: { stdout: { isTTY: true, columns: 80, write: (t: string) => ((out += t), true) }, stderr: { write: (t: string) => ((err += t), true) } },
    });
    const wallet = {
      id: 'wal_demo_acme_payroll',
      label: 'Payroll (Polygon)',
      chain: 'polygon',
      address: `0x140c${'0'.repeat(30)}faa966`,
      balance: { native: '597.487136112233445566', tokens: [], fiat_value: 122646.05 },
      transaction_count: 600,
      last_synced: '2026-11-29T08:00:00Z',
    };
    printWallets(o, [wallet as never]);
    expect(out.split('\n')[0]).toMatch(/ID .* LABEL .* CHAIN .* NATIVE .* VALUE/);
    expect(out).toContain('polygon');
    expect(err).toBe('(hidden to fit: ADDRESS, TXS, LAST SYNCED; --json shows all)\n');
    for (const line of out.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });
});

describe('wrapping at word boundaries', () => {
  it('a help example wraps with a shell continuation and never splits a word or a quoted string', () => {
    const text = examplesText(
      ['# a long comment about what the next command does, which goes on and on', 'txa tags create --name "Staking rewards" --type income --color "#059669"'],
      40,
    );
    const lines = text.trim().split('\n').slice(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    expect(lines.join('\n')).toContain('"Staking rewards"');
    expect(
      lines
        .filter((l) => l.startsWith('  $ ') || l.startsWith('      '))
        .slice(0, -1)
        .every((l) => l.endsWith(' \\')),
    ).toBe(true);
    expect(lines[1]!.startsWith('  # ')).toBe(true);
  });

  it('a word longer than the width stays whole', () => {
    expect(wrapWords(`  $ txa wallet add --address 0x${'a'.repeat(40)}`, '      ', 30, ' \\')).toBe(
      `  $ txa wallet add --address \\\n      0x${'a'.repeat(40)}`,
    );
  });
});

describe("a check finding's example at 80 columns", () => {
  it('wraps at words with its continuation indented, and no line passes 80', async () => {
    let out = '';
    const tty = { isTTY: true, columns: 80, write: (t: string) => ((out += t), true) };
    const { Output } = await import('../../../src/cli/output.js');
    const o = new Output({ json: false, color: false, streams: { stdout: tty, stderr: { write: () => true } } });
    // Long enough to fill a continuation line: an indent added after the wrap would pass 80.
    const example = `  2026-10-14T08:12:55Z tx_057cbc84d475a9c551d077ca Treasury Safe outflow 0.0000976 ETH ${'to a b '.repeat(20)}end`;
    o.line(o.joinToWidth(example.split(' '), ' ', '    '));
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}\S/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.join(' ').replace(/ +/g, ' ').trim()).toBe(example.replace(/ +/g, ' ').trim());
  });
});

describe('notices on a terminal of 80 columns', () => {
  it("wrap at words (the demo's PATH hint, the lots heading); in a pipe they stay one line", async () => {
    const { Output } = await import('../../../src/cli/output.js');
    const text = '(txa is not on your PATH: run ./bin/txa from the checkout, or `npm link` once to put txa there)';
    const noticed = (isTTY: boolean) => {
      let err = '';
      const stderr = { isTTY, columns: 80, write: (t: string) => ((err += t), true) };
      new Output({ json: false, color: false, streams: { stdout: { write: () => true }, stderr } }).notice(text);
      return err;
    };
    const lines = noticed(true).trimEnd().split('\n');
    expect(lines.length).toBe(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.join(' ')).toBe(text);
    expect(noticed(false)).toBe(`${text}\n`);
  });
});

describe('schedules list at 80 columns', () => {
  it('stays within 80: FORMAT hides after the last run, the next run and recipients stay', async () => {
    const { printSchedules } = await import('../../../src/cli/commands/schedules/view.js');
    const { Output } = await import('../../../src/cli/output.js');
    let out = '';
    let err = '';
    const tty = { isTTY: true, columns: 80, write: (t: string) => ((out += t), true) };
    const o = new Output({ json: false, color: false, streams: { stdout: tty, stderr: { write: (t: string) => ((err += t), true) } } });
    const schedule = {
      id: 'sch_4d441399fd91aad87e1f',
      name: 'Monthly CSV',
      every: 'monthly',
      format: 'csv',
      report_type: null,
      filters: {},
      delivery: { method: 'email', email_recipients: ['books@example.com'] },
      next_run_at: '2026-12-01T00:00:00Z',
      last_run: null,
    };
    printSchedules(o, [schedule as never]);
    expect(out.split('\n')[0]).toMatch(/ID .* NAME .* EVERY .* TO .* NEXT RUN/);
    expect(err).toBe('(hidden to fit: FORMAT, LAST PERIOD, LAST EXPORT; --json shows all)\n');
    for (const line of out.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
