/**
 * One list of cases through the CLI against the local backend and against a real `txa serve`
 * (remote backend via --base-url + TXA_API_KEY) on identical seeded ledgers: the same exit codes
 * and the same --json output on stdout and stderr, apart from generated ids and the server's URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { seedLedger, WS } from '../server/seed.js';
import type { Engine } from '../../src/engine/engine.js';
import { compareDecimal } from '../../src/core/money.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { conformanceCases, type Ids } from './cases.js';

const NOW = '2025-03-01T12:00:00Z';
const ID = /\b(tag|evt|key|exp|att|wh|dlv|trf|wal|sch|mem|inv)_[0-9a-f]{20}\b/g;

/** Masks what legitimately differs: generated ids (numbered by first appearance), the server's URL, created_by and actor. */
function normalize(text: string): unknown {
  if (text.trim() === '') return '';
  const seen = new Map<string, string>();
  const masked = text
    .replace(/"created_by":"[^"]*"/g, '"created_by":"<actor>"') // before ids: the API records the key's member id
    .replace(/"actor":"[^"]*"/g, '"actor":"<actor>"') // so do change events
    .replace(/"(closed_by|reopened_by)":"[^"]*"/g, '"$1":"<actor>"') // and closed periods
    .replace(/"invited_by":"[^"]*"/g, '"invited_by":"<actor>"') // and invitations
    .replace(/"token":"txa_inv_\w+"/g, '"token":"<token>"') // an invitation's token is random
    .replace(ID, (id, kind: string) => {
      if (!seen.has(id)) seen.set(id, `<${kind}#${seen.size}>`);
      return seen.get(id)!;
    })
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<base>')
    .replace(/file:\/\/[^"]*\/attachments\//g, '<base>/api/v1/attachments/')
    // A local export without a public URL links its stored file; the server signs a link (docs/exports.md).
    .replace(/file:\/\/[^"]*\/exports\/(<exp#\d+>)\.\w+/g, '<base>/api/v1/exports/$1/download?expires=<x>&token=<x>')
    .replace(/([?&](?:token|expires)=)[^"&]*/g, '$1<x>');
  try {
    return JSON.parse(masked);
  } catch {
    return masked;
  }
}

let local: Sandbox;
let remote: Sandbox;
let server: ServeProcess;
let txIds: string[];
let transferIds: Ids;

/** Rows of the seeded ledger for the own-transfer cases (cases.ts). */
function transferRows(engine: Engine): Ids {
  const rows = engine.db.prepare('SELECT id, workspace_id, wallet_id, token_symbol, amount, direction FROM transactions ORDER BY id').all() as {
    id: string;
    workspace_id: string;
    wallet_id: string;
    token_symbol: string;
    amount: string;
    direction: string;
  }[];
  const main = rows.filter((r) => r.workspace_id === WS);
  const outs = main.filter((r) => r.direction === 'outflow' && r.wallet_id === 'wal_ethereum');
  const pair = outs
    .flatMap((o) =>
      main
        .filter(
          (i) => i.direction === 'inflow' && i.wallet_id === 'wal_polygon' && i.token_symbol === o.token_symbol && compareDecimal(i.amount, o.amount) <= 0,
        )
        .map((i) => [o, i]),
    )
    .at(0)!;
  const out2 = outs.find((o) => o !== pair[0])!;
  return {
    pairOut: pair[0]!.id,
    pairIn: pair[1]!.id,
    out2: out2.id,
    otherToken: main.find((i) => i.direction === 'inflow' && i.wallet_id === 'wal_polygon' && i.token_symbol !== out2.token_symbol)!.id,
    foreign: rows.find((r) => r.workspace_id !== WS)!.id,
  };
}

beforeAll(async () => {
  const seeded = seedLedger({ rows: 60 });
  txIds = seeded.txIds.slice(0, 3);
  transferIds = transferRows(seeded.engine);
  const key = seeded.key('full');
  seeded.engine.close();
  local = sandbox({ TXA_NOW: NOW });
  copyFileSync(seeded.path, local.env.TXA_DB!);
  const served = join(seeded.dir, 'served.db');
  copyFileSync(seeded.path, served);
  server = await startServe(served, [], { TXA_NOW: NOW });
  remote = sandbox({ TXA_NOW: NOW, TXA_BASE_URL: server.url, TXA_API_KEY: key });
  for (const s of [local, remote]) writeFileSync(join(s.dir, 'receipt.txt'), 'Receipt #42\n');
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('conformance: local and remote backends give the same results', () => {
  const idsLocal: Ids = {};
  const idsRemote: Ids = {};
  beforeAll(() => {
    txIds.forEach((id, i) => (idsLocal[`tx${i}`] = idsRemote[`tx${i}`] = id));
    Object.assign(idsLocal, transferIds);
    Object.assign(idsRemote, transferIds);
  });

  for (const c of conformanceCases()) {
    it(c.name, async () => {
      const [l, r] = await Promise.all([local.txa([...c.args(idsLocal), '--json']), remote.txa([...c.args(idsRemote), '--json'])]);
      const side = (x: typeof l) => ({ exit: x.exitCode, stdout: normalize(x.stdout), stderr: normalize(x.stderr) });
      expect(side(r), `remote stderr: ${r.stderr}`).toEqual(side(l));
      expect(l.exitCode, l.stderr).toBe(c.exit ?? 0);
      if (l.exitCode === 0 && c.save) {
        c.save(JSON.parse(l.stdout), idsLocal);
        c.save(JSON.parse(r.stdout), idsRemote);
      }
    });
  }

  it('the download wrote the same file on both sides', () => {
    expect(readFileSync(join(remote.dir, 'out.csv'), 'utf8')).toBe(readFileSync(join(local.dir, 'out.csv'), 'utf8'));
  });
});
