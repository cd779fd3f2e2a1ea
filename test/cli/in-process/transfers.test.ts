import { beforeAll, describe, expect, it } from 'vitest';
import * as list from '../../../src/cli/commands/transfers/list.js';
import * as match from '../../../src/cli/commands/transfers/match.js';
import * as unmatch from '../../../src/cli/commands/transfers/unmatch.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger());
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
