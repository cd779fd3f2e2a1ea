/**
 * Tables fit the terminal (README "Output"): on a real terminal (tmux) of 80, 100 and 160 columns
 * no line is wider than the pane, ids stay whole, hidden columns are named on stderr, and the
 * "next page" hint shows only when there is a next page. A pipe keeps every column, uncut.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { createTag } from '../../src/engine/tags.js';
import { addTxs, addWallets } from '../exports/seed.js';
import { tagTransaction } from '../../src/engine/transaction-edits.js';
import { matchTransfer } from '../../src/engine/transfers.js';

let s: Sandbox;
let txIds: string[];
/** The legs of the two own transfers, as `transfers match` takes them. */
let legIds: string[];

beforeAll(async () => {
  s = sandbox();
  const engine = Engine.open(s.env.TXA_DB!);
  const ws = createWorkspace(engine, { name: 'Widths', tier: 'pro' }).id;
  const wallets = addWallets(engine, ws, ['Treasury Safe with a rather long label', '日本の財務ウォレット（メイン）']);
  const amounts = ['0.063128820034167869', '1187.561', '0', '19', '0.000097667166353512'];
  txIds = addTxs(
    engine,
    ws,
    wallets,
    Array.from({ length: 12 }, (_, i) => ({
      wallet: i % 2,
      day: `2025-01-${String(10 + i).padStart(2, '0')}`,
      amount: amounts[i % amounts.length]!,
      fiat: i % 5 === 1 ? '1187999.99' : '215.99',
      direction: i % 3 ? 'outflow' : 'inflow',
    })),
  );
  const tags = ['Treasury rebalancing', 'Staking rewards', '日本 vendor'].map(
    (name) => createTag(engine, ws, { name, type: 'neutral', description: 'a description long enough to need cutting on any terminal' }).id,
  );
  for (const id of txIds) tagTransaction(engine, ws, id, { tag_ids: tags });
  // Two own transfers between the wallets: 1187.561 ETH (rows 1 and 6) and 19 ETH (rows 8 and 3).
  legIds = [1, 6, 8, 3].map((i) => txIds[i]!);
  matchTransfer(engine, ws, { transaction_id: legIds[0], counterpart_id: legIds[1] });
  matchTransfer(engine, ws, { transaction_id: legIds[2], counterpart_id: legIds[3] });
  engine.close();
  s.env.TXA_WORKSPACE = ws;
}, 30_000);

async function onTerminal(args: string, width: number, env: Record<string, string> = {}) {
  const run = await inTerminal(`${BIN} ${args}`, { env: { ...s.env, ...env }, width, height: 40, joinWrapped: true, until: /exit=\d/ });
  expect(run.screen).toMatch(/exit=0/);
  return run.screen.split('\n').map((l) => l.trimEnd());
}

describe('tables on a terminal', () => {
  for (const width of [80, 100, 160]) {
    it(`at ${width} columns no line is wider than the terminal; ids stay whole`, async () => {
      for (const args of ['tx list --limit 5', 'tags list', 'wallet list', 'workspace list']) {
        const lines = await onTerminal(args, width);
        const wide = lines.filter((l) => [...l].length > width);
        expect(wide, `${args} at ${width}`).toEqual([]);
        if (args.startsWith('tx list')) for (const id of txIds.slice(-3)) expect(lines.join('\n')).toContain(id);
      }
    });
  }

  it('borderless, as gh prints lists: a header line, one line per row, no box or rule', async () => {
    const lines = (await onTerminal('tx list --limit 5', 160)).filter((l) => l !== '');
    expect(lines.filter((l) => /[│┌└├─]/.test(l))).toEqual([]);
    expect(lines.find((l) => l.startsWith('DATE'))).toMatch(/^DATE {2,}ID {2,}WALLET {2,}CHAIN {2,}TYPE {2,}AMOUNT {2,}TOKEN {2,}VALUE {2,}TAGS$/);
    for (const id of txIds.slice(-3)) expect(lines.filter((l) => l.includes(id))).toHaveLength(1);
  });

  it('at 80 columns, the columns hidden to fit are named; at 160 none is', async () => {
    expect((await onTerminal('tx list --limit 5', 80)).join(' ')).toMatch(/\(hidden to fit: (.+, )?TYPE(, .+)?; --json shows all\)/);
    expect((await onTerminal('tx list --limit 5', 160)).join(' ')).not.toMatch(/hidden to fit/);
  });

  it('COLUMNS wins over the terminal size', async () => {
    const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));
    expect(widest(await onTerminal('tx list --limit 5', 160))).toBeGreaterThan(90);
    expect(widest(await onTerminal('tx list --limit 5', 160, { COLUMNS: '90' }))).toBeLessThanOrEqual(90);
  });

  it('the next page hint shows only when there is a next page', async () => {
    expect(await onTerminal('tx list --limit 5', 160)).toContain('next page: --page 2');
    expect(await onTerminal('tx list --limit 5 --page 2', 160)).toContain('next page: --page 3');
    const last = (await onTerminal('tx list --limit 5 --page 3', 160)).join('\n');
    expect(last).toMatch(/page 3 of 3/);
    expect(last).not.toMatch(/next page/);
    expect((await onTerminal('tx list --all', 160)).join('\n')).not.toMatch(/next page/);
  });
});

describe('own transfers and history on a terminal', () => {
  for (const width of [80, 100, 120]) {
    it(`at ${width} columns transfers list and tx history fit as far as the ids allow; the legs' ids stay whole`, async () => {
      const transfers = await onTerminal('transfers list', width);
      for (const id of legIds) expect(transfers.join('\n')).toContain(id);
      // At 80 the three ids alone are wider than the terminal: each transfer prints as a record (docs/cli.md "Tables").
      expect(
        transfers.filter((l) => [...l].length > width),
        transfers.join('\n'),
      ).toEqual([]);
      const history = await onTerminal(`tx history ${legIds[0]}`, width);
      expect(
        history.filter((l) => [...l].length > width),
        history.join('\n'),
      ).toEqual([]);
      expect(history.join('\n')).toMatch(/transaction\.updated/);
    });
  }

  it('transfers list names the next page when there is one', async () => {
    expect(await onTerminal('transfers list --limit 1', 160)).toContain('next page: --page 2');
    expect((await onTerminal('transfers list --limit 1 --page 2', 160)).join('\n')).not.toMatch(/next page/);
  });
});

describe('tables in a pipe', () => {
  it('keep every column, uncut, with no hint on stdout; the hint goes to stderr', async () => {
    const r = await s.txa(['tx', 'list', '--limit', '5'], { env: { COLUMNS: '40' } });
    const rows = r.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows.every((cells) => cells.length === 9)).toBe(true);
    expect(rows.map((cells) => cells[2])).toContain('Treasury Safe with a rather long label');
    expect(rows.map((cells) => cells[5])).toContain('-0.063128820034167869');
    expect(r.stderr.split('\n')).toContain('next page: --page 2');
  });
});
