/**
 * `txa tx get` run in process (test/helpers/in-process.ts): the command's `run` on a real ledger
 * file, its stdout and stderr as a user sees them in a pipe, and its exit code.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/tx/get.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger } from '../../helpers/in-process-ledger.js';

let db: string;
let workspace: string;
let id: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { amount: '1.5', fiat_value: 4500 });
    id = engine.db.prepare('SELECT id FROM transactions').pluck().get() as string;
  }));
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
