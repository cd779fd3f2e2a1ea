import { beforeAll, describe, expect, it } from 'vitest';
import * as add from '../../../src/cli/commands/webhooks/add.js';
import * as list from '../../../src/cli/commands/webhooks/list.js';
import * as remove from '../../../src/cli/commands/webhooks/remove.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger());
});

describe('txa webhooks, in process', () => {
  it('add --json prints the subscription with its secret', async () => {
    const r = await runInProcess('txa webhooks add', add.run, { url: 'https://hooks.example.com/txa', events: 'tag.created' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      success: true,
      data: { url: 'https://hooks.example.com/txa', events: ['tag.created'], secret: expect.any(String) },
    });
  });

  it('list in a pipe: one row per subscription', async () => {
    const r = await runInProcess('txa webhooks list', list.run, {}, { db, workspace });
    expect(r.stdout).toMatch(/^wh_\S+\thttps:\/\/hooks\.example\.com\/txa\ttag\.created\t/m);
  });

  it('remove without --yes and a TTY is USAGE_ERROR (yes), exit 2', async () => {
    const r = await runInProcess('txa webhooks remove', remove.run, { id: 'wh_nope' }, { db, workspace });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(yes\)/);
  });
});
