/** `txa tokens spam|unspam|list` run in process (test/helpers/in-process.ts), on a ledger with one token row. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as list } from '../../../src/cli/commands/tokens/list.js';
import { run as spam } from '../../../src/cli/commands/tokens/spam.js';
import { run as unspam } from '../../../src/cli/commands/tokens/unspam.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

const TOKEN = `0x${'c'.repeat(40)}`;
let l: TempLedger;
let globals: { db: string; workspace: string };

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { amount: '100', token: { symbol: 'BAIT', address: TOKEN, decimals: 18 } });
  });
  globals = { db: l.db, workspace: l.workspace };
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa tokens, in process', () => {
  it('spam --json: the verdict with the rows it flagged; list shows it', async () => {
    const r = await runInProcess('txa tokens spam', spam, { tokens: [`ethereum:${TOKEN}`] }, { ...globals, json: true });
    expect([r.exitCode, JSON.parse(r.stdout)]).toEqual([
      0,
      { success: true, data: [expect.objectContaining({ chain: 'ethereum', address: TOKEN, spam: true, changed: 1 })] },
    ]);
    const listed = await runInProcess('txa tokens list', list, {}, { ...globals, json: true });
    expect(JSON.parse(listed.stdout).data).toEqual([expect.objectContaining({ address: TOKEN, spam: true })]);
  });

  it('in a pipe: one line per token; list a CHAIN<TAB>ADDRESS<TAB>SPAM row', async () => {
    const r = await runInProcess('txa tokens unspam', unspam, { tokens: [`ethereum:${TOKEN}`] }, globals);
    expect(r.stdout).toBe(`ethereum:${TOKEN} is not spam: 1 row unflagged\n`);
    const listed = await runInProcess('txa tokens list', list, {}, globals);
    expect(listed.stdout).toMatch(new RegExp(`^ethereum\\t${TOKEN}\\tno\\t`));
  });

  it('a token that is not CHAIN:ADDRESS is INVALID_FIELD (token), exit 1', async () => {
    const r = await runInProcess('txa tokens spam', spam, { tokens: ['nonsense'] }, globals);
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^error: INVALID_FIELD \(token\): /);
  });
});
