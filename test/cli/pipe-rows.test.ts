/**
 * docs/architecture.md "Output and exit codes" "without a TTY, plain tab-separated rows … so `cut` and `awk` work": fiat values are
 * plain numbers in a pipe (grouped only on a terminal), a value's tabs and line breaks never split
 * a row, and the page footer agrees with the JSON (`pages: 0` for nothing, "1 transaction").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sandbox, BIN, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';

const PLAIN = /^-?\d+\.\d{2}$/;
const BIGGEST = 'tx_7a8998ce03a08ad63357c1e1'; // the demo's largest transfer: 1,187,999.99 USD
let s: Sandbox;
let demo: { stdout: string; exitCode: number };

beforeAll(async () => {
  s = sandbox();
  demo = await s.txa(['demo', '--dir', 'reports']);
  expect(demo.exitCode).toBe(0);
});

const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));

describe('fiat values in a pipe', () => {
  it('tx list, tx get, wallet list and the demo summary print plain numbers; the footer on stderr too', async () => {
    const top = await s.txa(['tx', 'list', '--sort', 'amount_desc', '--limit', '1']);
    expect(rows(top.stdout)).toEqual([
      [expect.any(String), BIGGEST, 'Treasury Safe', 'ethereum', 'transfer', '+1187561.78', 'USDC', '1187999.99', 'Internal transfer'],
    ]);
    expect(top.stderr).toMatch(/inflow \d+\.\d{2} · outflow \d+\.\d{2} · net -?\d+\.\d{2}$/m);

    const page = await s.txa(['tx', 'list', '--limit', '200', '--sort', 'amount_desc']);
    expect(
      rows(page.stdout)
        .map((r) => r[7])
        .filter((v) => v !== '')
        .every((v) => PLAIN.test(v!)),
    ).toBe(true);

    const one = rows((await s.txa(['tx', 'get', BIGGEST])).stdout);
    expect(one).toContainEqual(['value', '1187999.99']);

    const wallets = rows((await s.txa(['wallet', 'list'])).stdout);
    expect(wallets.length).toBe(4);
    for (const w of wallets) expect(w[5]).toMatch(PLAIN);

    const summary = Object.fromEntries(rows(demo.stdout).filter((r) => r.length === 2));
    for (const key of ['inflow', 'outflow', 'net']) expect(summary[key]).toMatch(PLAIN);
  });

  it('a zero amount prints as 0, not -0 or +0; --json keeps the API value', async () => {
    const zero = rows((await s.txa(['tx', 'list', '--max-amount', '0', '--limit', '200'])).stdout);
    expect(zero.length).toBeGreaterThan(10);
    expect(new Set(zero.map((r) => r[5]))).toEqual(new Set(['0']));
    const json = (await s.json(['tx', 'list', '--max-amount', '0', '--limit', '200'])).data;
    expect(new Set(json.map((t: { amount: string }) => t.amount))).toEqual(new Set(['0']));
    expect(new Set(json.map((t: { direction: string }) => t.direction))).toContain('outflow');
  });

  it('a terminal still shows thousands separators', async () => {
    const run = await inTerminal(`${BIN} tx get ${BIGGEST}`, { env: s.env, cwd: s.dir, until: /exit=\d/ });
    expect(run.screen).toMatch(/value\s+1,187,999\.99/);
    expect(run.screen).toMatch(/exit=0/);
  });
});

describe('tx get in a pipe', () => {
  it('notes with tabs and line breaks stay on their key/value row', async () => {
    expect((await s.txa(['tx', 'update', BIGGEST, '--notes', 'Invoice 42\tpaid\nsecond line\r\nthird'])).exitCode).toBe(0);
    const r = await s.txa(['tx', 'get', BIGGEST]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n'); // execa drops only the final newline
    for (const line of lines) expect(line.split('\t')).toHaveLength(2);
    expect(lines).toContain('notes\tInvoice 42 paid second line  third');
    expect((await s.json(['tx', 'get', BIGGEST])).data.notes).toBe('Invoice 42\tpaid\nsecond line\r\nthird');
  });
});

describe('tx list footer', () => {
  it('nothing found: no page line (JSON has pages 0); one found: "1 transaction"', async () => {
    const none = await s.txa(['tx', 'list', '--token', 'NOPE']);
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([0, '', '0 transactions · inflow 0.00 · outflow 0.00 · net 0.00']);
    expect((await s.json(['tx', 'list', '--token', 'NOPE'])).pagination).toMatchObject({ total: 0, pages: 0 });

    const single = await s.txa(['tx', 'list', '--min-amount', '1187561.78']);
    expect(single.stderr).toBe('page 1 of 1 · 1 transaction · inflow 1187999.99 · outflow 0.00 · net 1187999.99');
  });
});
