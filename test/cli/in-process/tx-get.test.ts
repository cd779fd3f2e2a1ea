/**
 * `txa tx get` run in process (test/helpers/in-process.ts): the command's `run` on a real ledger
 * file, its stdout and stderr as a user sees them in a pipe, and its exit code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../../src/engine/engine.js';
import { createWorkspace } from '../../../src/engine/workspaces.js';
import { addWallet } from '../../../src/engine/wallets.js';
import { importFile } from '../../../src/engine/imports.js';
import { run } from '../../../src/cli/commands/tx/get.js';
import { runInProcess } from '../../helpers/in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'txa-in-process-'));
const db = join(dir, 'ledger.db');
let workspace: string;
let id: string;

beforeAll(() => {
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
  const engine = Engine.open(db);
  workspace = createWorkspace(engine, { name: 'In process' }).id;
  const wallet = addWallet(engine, workspace, { address: `0x${'1'.repeat(40)}`, chain: 'ethereum' }).id;
  const row = {
    tx_hash: `0x${'a'.repeat(64)}`,
    timestamp: '2025-03-01T10:00:00Z',
    amount: '1.5',
    token: { symbol: 'ETH', address: null, decimals: 18 },
    direction: 'inflow',
    from_address: `0x${'2'.repeat(40)}`,
    to_address: `0x${'1'.repeat(40)}`,
    fiat_value: 4500,
  };
  writeFileSync(join(dir, 'rows.ndjson'), `${JSON.stringify(row)}\n`);
  importFile(engine, workspace, join(dir, 'rows.ndjson'), { walletId: wallet });
  id = engine.db.prepare('SELECT id FROM transactions').pluck().get() as string;
  engine.close();
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa tx get, in process', () => {
  it('--json prints the API body of the transaction', async () => {
    const r = await runInProcess('txa tx get', run, { id }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { id, amount: '1.5', direction: 'inflow', fiat_value: 4500 } });
    expect(r.stderr).toBe('');
  });

  it('in a pipe: one key<TAB>value line per field', async () => {
    const r = await runInProcess('txa tx get', run, { id }, { db, workspace });
    expect(r.stdout).toMatch(new RegExp(`^id\\t${id}$`, 'm'));
    expect(r.stdout).toMatch(/^amount\t1\.5 ETH$/m);
  });

  it('an unknown id is TRANSACTION_NOT_FOUND, exit 1, one line on stderr', async () => {
    const r = await runInProcess('txa tx get', run, { id: 'tx_nope' }, { db, workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: TRANSACTION_NOT_FOUND/);
  });
});
