import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/events/list.js';
import { createTag } from '../../../src/engine/tags.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;
let tagId: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger((engine, ws) => {
    tagId = createTag(engine, ws, { workspace_id: ws, name: 'Salary', type: 'income' }).id;
  }));
});

describe('txa events list, in process', () => {
  it('--json prints the API page of events', async () => {
    const r = await runInProcess('txa events list', run, {}, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ success: true, pagination: { total: 1 } });
    expect(body.data[0]).toMatchObject({ type: 'tag.created', deliveries: [] });
  });

  it('in a pipe: one row per event, its subject the tag', async () => {
    const r = await runInProcess('txa events list', run, {}, { db, workspace });
    expect(r.stdout).toMatch(new RegExp(`^\\S+\\tevt_\\S+\\ttag\\.created\\t${tagId}\\t$`, 'm'));
  });

  it('a bad --limit is INVALID_PARAMETERS, exit 1', async () => {
    const r = await runInProcess('txa events list', run, { limit: '0' }, { db, workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: INVALID_PARAMETERS/);
  });
});
