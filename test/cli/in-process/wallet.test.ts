/** `txa wallet` run in process (test/helpers/in-process.ts) on a real ledger file: Backend verbs, assertions through the local service, the checks of sync. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as add from '../../../src/cli/commands/wallet/add.js';
import * as assert from '../../../src/cli/commands/wallet/assert.js';
import * as assertions from '../../../src/cli/commands/wallet/assertions.js';
import * as list from '../../../src/cli/commands/wallet/list.js';
import * as sync from '../../../src/cli/commands/wallet/sync.js';
import * as unassert from '../../../src/cli/commands/wallet/unassert.js';
import { importFile } from '../../../src/engine/imports.js';
import { addWallet } from '../../../src/engine/wallets.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

const ADDRESS = `0x${'1'.repeat(40)}`;
let db: string;
let workspace: string;
let walletId: string;
let heldId: string;

/** A wallet holding 1.5 ETH from 2025-03-01, for the assertions. */
beforeAll(() => {
  ({ db, workspace } = tempLedger((engine, ws, dir) => {
    heldId = addWallet(engine, ws, { address: `0x${'3'.repeat(40)}`, chain: 'ethereum', label: 'Hot' }).id;
    const row = {
      tx_hash: `0x${'a'.repeat(64)}`,
      timestamp: '2025-03-01T10:00:00Z',
      amount: '1.5',
      token: { symbol: 'ETH', address: null, decimals: 18 },
      direction: 'inflow',
      from_address: `0x${'2'.repeat(40)}`,
      to_address: `0x${'3'.repeat(40)}`,
    };
    writeFileSync(join(dir, 'rows.ndjson'), `${JSON.stringify(row)}\n`);
    importFile(engine, ws, join(dir, 'rows.ndjson'), { walletId: heldId });
  }));
});

describe('txa wallet, in process', () => {
  it('add --json prints the API body of the new wallet', async () => {
    const r = await runInProcess('txa wallet add', add.run, { address: ADDRESS, chain: 'ethereum', label: 'Cold' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ address: ADDRESS, chain: 'ethereum', label: 'Cold' });
    walletId = data.id;
  });

  it('list in a pipe: one tab-separated row per wallet', async () => {
    const r = await runInProcess('txa wallet list', list.run, {}, { db, workspace });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`${walletId}\tCold\tethereum\t`);
  });

  it('assert, assertions and unassert go through the local assertions service', async () => {
    const a = await runInProcess(
      'txa wallet assert',
      assert.run,
      { id: heldId, token: 'ETH', balance: '1.5', at: '2025-03-31' },
      { db, workspace, json: true },
    );
    expect(a.exitCode).toBe(0);
    const { data } = JSON.parse(a.stdout);
    expect(data).toMatchObject({ wallet_id: heldId, balance: '1.5', at: '2025-03-31' });
    const listed = await runInProcess('txa wallet assertions', assertions.run, { id: heldId }, { db, workspace });
    expect(listed.stdout).toBe(`${data.id}\tHot\tETH\t1.5\t2025-03-31\n`);
    const removed = await runInProcess('txa wallet unassert', unassert.run, { id: data.id }, { db, workspace });
    expect([removed.exitCode, removed.stderr]).toEqual([0, `Removed assertion ${data.id}.\n`]);
  });

  it('an assertion on an unknown wallet is WALLET_NOT_FOUND, exit 1', async () => {
    const r = await runInProcess('txa wallet assert', assert.run, { id: 'wal_nope', token: 'ETH', balance: '1', at: '2025-01-31' }, { db, workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: WALLET_NOT_FOUND/);
  });

  it('sync with neither ids nor --all is USAGE_ERROR (ids), exit 2; --dry-run on a remote backend LOCAL_ONLY', async () => {
    const none = await runInProcess('txa wallet sync', sync.run, { ids: [] }, { db, workspace });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^error: USAGE_ERROR \(ids\): name the wallets to sync, or pass --all/);
    const remote = await runInProcess('txa wallet sync', sync.run, { ids: [walletId], dryRun: true }, { baseUrl: 'http://127.0.0.1:1', workspace, json: true });
    expect(remote.exitCode).toBe(2);
    expect(JSON.parse(remote.stderr)).toMatchObject({ success: false, error: { code: 'LOCAL_ONLY', field: 'dry-run' } });
  });
});
