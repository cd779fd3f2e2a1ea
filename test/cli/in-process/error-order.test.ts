/**
 * Which error comes first (docs/architecture.md "Output and exit codes"): a command checks its own
 * input (arguments, flag values, the environment its work reads, the files it names) before it
 * opens a ledger or a backend, so a bad value creates no ledger file; LOCAL_ONLY comes after.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run as revoke } from '../../../src/cli/commands/keys/revoke.js';
import { run as fill } from '../../../src/cli/commands/prices/fill.js';
import { run as apply } from '../../../src/cli/commands/rules/apply.js';
import { run as serve } from '../../../src/cli/commands/serve/serve.js';
import { run as deleteTag } from '../../../src/cli/commands/tags/delete.js';
import { run as spam } from '../../../src/cli/commands/tokens/spam.js';
import { run as removeWallet } from '../../../src/cli/commands/wallet/remove.js';
import { run as removeWebhook } from '../../../src/cli/commands/webhooks/remove.js';
import { run as syncRun } from '../../../src/cli/commands/wallet/sync.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

/** Nothing listens there: a request to it would fail, and none is made. */
const REMOTE = 'http://127.0.0.1:1';
const TOKEN = `ethereum:0x${'c'.repeat(40)}`;

let l: TempLedger;
/** A ledger path with no file: a command that opened it would create it. */
let missing: string;
const envSet: string[] = [];

function setEnv(name: string, value: string): void {
  process.env[name] = value;
  envSet.push(name);
}

function errorOf(stderr: string): { code: string; field?: string } {
  return JSON.parse(stderr).error;
}

beforeAll(() => {
  l = tempLedger();
  missing = join(l.dir, 'not-yet.db');
  writeFileSync(join(l.dir, 'bad.yaml'), 'rules:\n  - name: x\n    match: {chain: nowhere}\n    set: {notes: n}\n');
  writeFileSync(join(l.dir, 'good.yaml'), 'rules:\n  - name: x\n    match: {direction: inflow}\n    set: {notes: n}\n');
});
afterEach(() => {
  for (const name of envSet.splice(0)) delete process.env[name];
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('the command input before the ledger, the backend and LOCAL_ONLY', () => {
  it('tokens spam: a bad CHAIN:ADDRESS is INVALID_FIELD before a missing workspace, and opens no ledger', async () => {
    const r = await runInProcess('txa tokens spam', spam, { tokens: ['ethereum:nonsense'] }, { db: missing, json: true });
    expect([r.exitCode, errorOf(r.stderr)]).toEqual([1, expect.objectContaining({ code: 'INVALID_FIELD', field: 'address' })]);
    expect(existsSync(missing)).toBe(false);
    // A good token and no workspace: the workspace is what is missing.
    const good = await runInProcess('txa tokens spam', spam, { tokens: [TOKEN] }, { db: missing, json: true });
    expect([good.exitCode, errorOf(good.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'workspace' })]);
  });

  it('rules apply on a remote backend: a bad file is INVALID_RULES (exit 1) before LOCAL_ONLY; a good one is LOCAL_ONLY (exit 2)', async () => {
    const globals = { baseUrl: REMOTE, workspace: l.workspace, json: true };
    const bad = await runInProcess('txa rules apply', apply, { file: join(l.dir, 'bad.yaml') }, globals);
    expect([bad.exitCode, errorOf(bad.stderr)]).toEqual([1, expect.objectContaining({ code: 'INVALID_RULES', field: 'rules.0.match.chain' })]);
    const good = await runInProcess('txa rules apply', apply, { file: join(l.dir, 'good.yaml') }, globals);
    expect([good.exitCode, errorOf(good.stderr).code]).toEqual([2, 'LOCAL_ONLY']);
  });

  it('prices fill: a bad TXA_PRICES_TIMEOUT is USAGE_ERROR naming it, and no ledger file is created', async () => {
    setEnv('TXA_PRICES_TIMEOUT', 'soon');
    const r = await runInProcess('txa prices fill', fill, {}, { db: missing, workspace: l.workspace, json: true });
    expect([r.exitCode, errorOf(r.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'TXA_PRICES_TIMEOUT' })]);
    expect(existsSync(missing)).toBe(false);
  });

  it('wallet sync: a bad TXA_SYNC_TIMEOUT, or TXA_PRICES_RPS with --prices, is USAGE_ERROR naming it, and no ledger file is created', async () => {
    const globals = { db: missing, workspace: l.workspace, json: true };
    setEnv('TXA_SYNC_TIMEOUT', '-1');
    const syncEnv = await runInProcess('txa wallet sync', syncRun, { ids: ['w_any'] }, globals);
    expect([syncEnv.exitCode, errorOf(syncEnv.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'TXA_SYNC_TIMEOUT' })]);
    delete process.env.TXA_SYNC_TIMEOUT;
    setEnv('TXA_PRICES_RPS', 'fast');
    const pricesEnv = await runInProcess('txa wallet sync', syncRun, { ids: ['w_any'], prices: true }, globals);
    expect([pricesEnv.exitCode, errorOf(pricesEnv.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'TXA_PRICES_RPS' })]);
    expect(existsSync(missing)).toBe(false);
  });

  it("wallet sync on a remote backend: --prices with a bad TXA_PRICES_RPS says it before LOCAL_ONLY; TXA_SYNC_* is the server's, not read", async () => {
    const globals = { baseUrl: REMOTE, workspace: l.workspace, json: true };
    setEnv('TXA_PRICES_RPS', 'fast');
    const prices = await runInProcess('txa wallet sync', syncRun, { ids: ['w_any'], prices: true }, globals);
    expect([prices.exitCode, errorOf(prices.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'TXA_PRICES_RPS' })]);
    setEnv('TXA_SYNC_TIMEOUT', '-1');
    const dry = await runInProcess('txa wallet sync', syncRun, { ids: ['w_any'], dryRun: true }, globals);
    expect([dry.exitCode, errorOf(dry.stderr)]).toEqual([2, expect.objectContaining({ code: 'LOCAL_ONLY', field: 'dry-run' })]);
  });

  it('tags delete, wallet remove, webhooks remove, keys revoke without --yes and a terminal: USAGE_ERROR (yes) before the ledger is opened', async () => {
    const globals = { db: missing, workspace: l.workspace, json: true };
    const runs = [
      await runInProcess('txa tags delete', deleteTag, { ref: 'Temp' }, globals),
      await runInProcess('txa wallet remove', removeWallet, { id: 'w_any' }, globals),
      await runInProcess('txa webhooks remove', removeWebhook, { id: 'wh_any' }, globals),
      await runInProcess('txa keys revoke', revoke, { id: 'key_any' }, globals),
    ];
    for (const r of runs) expect([r.exitCode, errorOf(r.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'yes' })]);
    expect(existsSync(missing)).toBe(false);
  });

  it('serve: a bad TXA_SYNC_RPS is USAGE_ERROR naming it, before the ledger is opened', async () => {
    setEnv('TXA_SYNC_RPS', 'many');
    const r = await runInProcess('txa serve', serve, { host: '127.0.0.1', port: '0' }, { db: missing, json: true });
    expect([r.exitCode, errorOf(r.stderr)]).toEqual([2, expect.objectContaining({ code: 'USAGE_ERROR', field: 'TXA_SYNC_RPS' })]);
    expect(existsSync(missing)).toBe(false);
  });
});
