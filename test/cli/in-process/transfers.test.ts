/** `txa transfers` run in process (test/helpers/in-process.ts): list, match and unmatch on a real ledger file. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as list from '../../../src/cli/commands/transfers/list.js';
import * as match from '../../../src/cli/commands/transfers/match.js';
import * as unmatch from '../../../src/cli/commands/transfers/unmatch.js';
import { tempEngine } from '../../helpers/engine.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;

beforeAll(() => {
  const { dir, engine, ws } = tempEngine();
  engine.close();
  db = join(dir, 'ledger.db');
  workspace = ws;
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa transfers, in process', () => {
  it('match --auto --json counts the legs matched', async () => {
    const r = await runInProcess('txa transfers match', match.run, { auto: true }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { legs_matched: 0 } });
  });

  it('list in a pipe: no rows on stdout, the count on stderr', async () => {
    const r = await runInProcess('txa transfers list', list.run, {}, { db, workspace });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('0 transfers\n');
  });

  it('match without ids or --auto: the USAGE_ERROR body on stderr, naming tx_id, exit 2', async () => {
    const r = await runInProcess('txa transfers match', match.run, {}, { db, workspace, json: true });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({ success: false, error: { code: 'USAGE_ERROR', field: 'tx_id' } });
  });

  it('unmatch of an unknown leg is TRANSACTION_NOT_FOUND, exit 1', async () => {
    const r = await runInProcess('txa transfers unmatch', unmatch.run, { id: 'tx_nope' }, { db, workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: TRANSACTION_NOT_FOUND/);
  });
});
