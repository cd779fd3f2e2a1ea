/**
 * `txa export create --format beancount` on amounts beyond beancount's 28 significant digits
 * (docs/journals.md, "Beyond 28 digits"): the file says which entries are written in pieces, and
 * the CLI repeats its count on stderr; the hledger journal, which holds them whole, says nothing.
 */
import { expect, test } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const hasTool = async (bin: string) => (await execa(bin, ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const BEANCOUNT = await hasTool('bean-check');
if (!BEANCOUNT) console.warn('bean-check is not installed: skipping the beancount check (CI installs it: apt-get install -y beancount)');

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Meme Co', '--tier', 'pro'])).data.id;
const address = `0x${'1'.repeat(40)}`;
const wallet = (await s.json(['wallet', 'add', '--address', address, '--chain', 'ethereum', '--label', 'Main'])).data.id;
// 10^28 tokens and one base unit of an 18-decimal token: 47 significant digits.
const row = {
  tx_hash: `0x${'a'.repeat(64)}`,
  chain: 'ethereum',
  from_address: `0x${'5'.repeat(40)}`,
  to_address: address,
  token: { symbol: 'MEME', address: `0x${'e'.repeat(40)}`, decimals: 18 },
  amount: '10000000000000000000000000000.000000000000000001',
  fiat_value: null,
  direction: 'inflow',
  type: 'transfer',
  timestamp: '2024-01-01T12:00:00Z',
};
const rows = join(s.dir, 'rows.ndjson');
writeFileSync(rows, JSON.stringify(row));
expect((await s.txa(['import', rows, '--wallet', wallet, '--format', 'ndjson'])).exitCode).toBe(0);

test('the beancount export says on stderr how many entries are in pieces; bean-check accepts the file', async () => {
  const file = join(s.dir, 'all.beancount');
  const r = await s.txa(['export', 'create', '--format', 'beancount', '--out', file]);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toContain("txa: 1 entry has amounts of more than 28 significant digits, beyond beancount's precision, written in pieces");
  if (BEANCOUNT) expect((await execa('bean-check', [file], { reject: false })).exitCode).toBe(0);
  const ledger = await s.txa(['export', 'create', '--format', 'ledger', '--out', join(s.dir, 'all.journal')]);
  expect([ledger.exitCode, ledger.stderr]).toEqual([0, expect.not.stringContaining('txa: ')]);
});
