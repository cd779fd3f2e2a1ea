/** `txa wallet sync --rules` on the built binary against the replay explorer on 127.0.0.1: the new rows are ruled, old ones never. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';
import { replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { WALLET, apiLists, history } from '../helpers/sync-history.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await replayServer();
  server.lists = apiLists(history(30), 'etherscan');
});
afterAll(() => server.close());

describe('txa wallet sync --rules', () => {
  it('applies the rules to each batch of new rows; a file with an unknown tag stops the sync before any request', async () => {
    const s = sandbox({ TXA_ETHERSCAN_URL: server.url, TXA_ETHERSCAN_API_KEY: 'test-key', TXA_SYNC_RPS: '1000', TXA_SYNC_PAGE_SIZE: '4' });
    s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Sync'])).data.id;
    const wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
    writeFileSync(join(s.dir, 'bad.yaml'), 'rules: [{name: t, match: {}, set: {tags: [Travel]}}]');
    const bad = await s.txa(['wallet', 'sync', wallet, '--rules', 'bad.yaml']);
    expect([bad.exitCode, bad.stderr, server.calls.length]).toEqual([1, expect.stringMatching(/^error: INVALID_RULES \(rules\.0\.set\.tags\.0\)/), 0]);

    writeFileSync(join(s.dir, 'rules.yaml'), 'rules: [{name: received, match: {direction: inflow}, set: {notes: synced in}}]');
    const out = await s.json(['wallet', 'sync', wallet, '--rules', 'rules.yaml']);
    const db = new Database(s.env.TXA_DB!, { readonly: true });
    const inflows = db.prepare("SELECT count(*) FROM transactions WHERE direction = 'inflow'").pluck().get() as number;
    const noted = db.prepare("SELECT count(*) FROM transactions WHERE notes = 'synced in'").pluck().get() as number;
    db.close();
    expect(inflows).toBeGreaterThan(0);
    expect(noted).toBe(inflows);
    expect(out.data[0]).toMatchObject({
      wallet_id: wallet,
      new_transactions: 88,
      rules: { dry_run: false, rules: [{ name: 'received', matched: inflows, changed: inflows }], changed: inflows },
    });
    const again = await s.json(['wallet', 'sync', wallet, '--rules', 'rules.yaml']);
    expect(again.data[0].rules).toEqual({ dry_run: false, rules: [{ name: 'received', matched: 0, changed: 0 }], changed: 0 });
  });
});
