/**
 * Issue 24, items 7 and 8: an import that flags rows as spam says how many and how to see them
 * (`imported 2` and a list of 1 would disagree otherwise); the first command without a workspace
 * points at `./bin/txa demo` and `./bin/txa workspace create`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addWallet } from '../../../src/engine/wallets.js';
import { markTokens } from '../../../src/engine/spam-tokens.js';
import { run as importRun } from '../../../src/cli/commands/import/import.js';
import { run as txList } from '../../../src/cli/commands/tx/list.js';
import { run as exportCreate } from '../../../src/cli/commands/export/create.js';
import { run as pricesFill } from '../../../src/cli/commands/prices/fill.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

const ADDRESS = `0x${'1'.repeat(40)}`;
const SPAM_TOKEN = `0x${'5'.repeat(40)}`;
let l: TempLedger;
let wallet: string;

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    wallet = addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum' }).id;
    markTokens(engine, ws, [{ chain: 'ethereum', address: SPAM_TOKEN }], true);
    const row = (n: number, token: object) => ({
      tx_hash: `0x${String(n).repeat(64)}`,
      timestamp: '2025-03-01T10:00:00Z',
      amount: '1',
      token,
      direction: 'inflow',
      from_address: `0x${'2'.repeat(40)}`,
      to_address: ADDRESS,
    });
    const rows = [row(1, { symbol: 'ETH', address: null, decimals: 18 }), row(2, { symbol: 'FREE', address: SPAM_TOKEN, decimals: 18 })];
    writeFileSync(join(dir, 'rows.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('import: rows flagged as spam', () => {
  it('are counted, and stderr says how to see them', async () => {
    const globals = { db: l.db, workspace: l.workspace };
    const r = await runInProcess('txa import', importRun, { file: join(l.dir, 'rows.ndjson'), wallet, format: 'auto' }, globals);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^imported\t2$/m);
    expect(r.stdout).toMatch(/^flagged as spam\t1$/m);
    expect(r.stderr).toContain('1 of the imported rows was flagged as spam and left out of lists and reports: see them with txa tx list --include-spam');
    const listed = await runInProcess('txa tx list', txList, {}, { ...globals, json: true });
    expect(JSON.parse(listed.stdout).pagination.total).toBe(1);
  });
});

describe('the first command without a workspace', () => {
  it('is USAGE_ERROR (workspace), and its next step is ./bin/txa demo or workspace create', async () => {
    const saved = process.env.TXA_WORKSPACE;
    delete process.env.TXA_WORKSPACE;
    try {
      const r = await runInProcess('txa tx list', txList, {}, { db: l.db });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split('\n')[1]).toBe(
        'New here? `./bin/txa demo` loads a demo workspace; `./bin/txa workspace create NAME` makes an empty one (`txa` once `npm link` put it on your PATH).',
      );
    } finally {
      if (saved !== undefined) process.env.TXA_WORKSPACE = saved;
    }
  });
});

describe('item 10: --out', () => {
  it("an existing file is replaced and stderr says so; expires_at names the stored copy's link", async () => {
    const globals = { db: l.db, workspace: l.workspace };
    const out = join(l.dir, 'rows.csv');
    const first = await runInProcess('txa export create', exportCreate, { format: 'csv', out }, globals);
    expect([first.exitCode, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toMatch(/^expires_at\t\S+ \(the stored copy's link; the file stays\)$/m);
    const again = await runInProcess('txa export create', exportCreate, { format: 'csv', out }, globals);
    expect([again.exitCode, again.stderr]).toEqual([0, `replaced the existing file ${out}\n`]);
  });
});

describe('item 7: prices fill without a network', () => {
  it('fails at the first try when the price source cannot be resolved, naming the source and the host', async () => {
    process.env.TXA_DEFILLAMA_URL = 'https://coins.no-such-host.invalid';
    try {
      const started = Date.now();
      const r = await runInProcess('txa prices fill', pricesFill, {}, { db: l.db, workspace: l.workspace });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(
        /^error: SYNC_FAILED: the price source DefiLlama failed: cannot resolve coins\.no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\): no network, or no such host$/m,
      );
    } finally {
      delete process.env.TXA_DEFILLAMA_URL;
    }
  });
});
