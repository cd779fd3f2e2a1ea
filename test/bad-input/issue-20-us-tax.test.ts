import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as exportCreate from '../../src/cli/commands/export/create.js';
import * as importCmd from '../../src/cli/commands/import/import.js';
import * as allocate from '../../src/cli/commands/lots/allocate.js';
import * as pick from '../../src/cli/commands/lots/pick.js';
import * as close from '../../src/cli/commands/period/close.js';
import * as reopen from '../../src/cli/commands/period/reopen.js';
import { Engine } from '../../src/engine/engine.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { createWallet } from '../../src/engine/wallets.js';
import { buildServer } from '../../src/server/app.js';
import { runInProcess } from '../helpers/in-process.js';
import { type LotsLedger, lotsLedger } from '../lots/seed.js';
import { type CliRun, fileIn, refusedIn, snapshot } from './snapshot.js';

let l: LotsLedger;
let engine: Engine;
let app: FastifyInstance;
let broker: string;
const USAGE = ['api_usage'];

const json = () => ({ db: l.path, workspace: l.ws, json: true });
const file = (name: string, text: string) => fileIn(l.dir, name, text);
const refused = (run: () => Promise<CliRun>) => refusedIn(l.path, run, USAGE);

beforeAll(async () => {
  l = lotsLedger();
  process.env.TXA_CONFIG_DIR = join(l.dir, 'config');
  engine = Engine.open(l.path);
  broker = createWallet(engine, l.ws, { kind: 'exchange', exchange: 'coinbase', label: 'Coinbase' }).id;
  app = buildServer({ backend: new LocalBackend(engine), engine, allowPrivateWebhooks: false });
});
afterAll(async () => {
  await app.close();
  engine.close();
});

const HEADER = 'date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported';
const brokerLines = (name: string, text: string) =>
  runInProcess('txa import', importCmd.run, { file: file(name, text), format: '1099da', walletId: broker }, json());
const exporting = (o: Record<string, unknown>) =>
  runInProcess('txa export create', exportCreate.run, { format: 'csv', reportType: 'tax', out: join(l.dir, 'out.csv'), ...o } as never, json());

describe('issue 20: allocation and picks', () => {
  it('a bad allocation file: INVALID_ALLOCATION, field the line, the value quoted; nothing recorded', async () => {
    const cases: [string, string, RegExp][] = [
      [`wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},two\n`, 'line 3', /^line 3: quantity must be a positive number, got 'two'$/],
      [`wallet,lot,quantity\nDelta,${l.ids.l3},0.5\n`, 'line 2', /^line 2: no wallet of the workspace has the id or label 'Delta'$/],
      [
        `wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},1.5\nGamma,${l.ids.l1},0.5\nGamma,${l.ids.l3},0.5\n`,
        'line 3',
        /^line 3: wallet Beta holds 2 ETH at 2025-01-01; its lines assign 1\.5/,
      ],
    ];
    for (const [text, field, message] of cases) {
      const { exit, error } = await refused(() => runInProcess('txa lots allocate', allocate.run, { specific: file('alloc.csv', text) }, json()));
      expect([exit, error.code, error.field]).toEqual([1, 'INVALID_ALLOCATION', field]);
      expect(error.message).toMatch(message);
    }
  });

  it("a pick of another wallet's lot, or of more than the lot holds: INVALID_PICK, field the lot, nothing recorded", async () => {
    expect((await runInProcess('txa lots allocate', allocate.run, {}, json())).exitCode).toBe(0);
    const other = await refused(() => runInProcess('txa lots pick', pick.run, { disposalId: l.ids.s25, lots: [l.ids.l2] }, json()));
    expect([other.exit, other.error.code, other.error.field]).toEqual([1, 'INVALID_PICK', l.ids.l2]);
    expect(other.error.message).toBe(`lot ${l.ids.l2} is not open in wallet Gamma's ETH at the disposal ${l.ids.s25}`);
    const more = await refused(() => runInProcess('txa lots pick', pick.run, { disposalId: l.ids.s24, lots: [`${l.ids.l1}:1.5`] }, json()));
    expect([more.exit, more.error.code, more.error.field]).toEqual([1, 'INVALID_PICK', l.ids.l1]);
    expect(more.error.message).toBe(`lot ${l.ids.l1} holds 1 ETH in the pool of ETH at the disposal; the pick takes 1.5`);
  });
});

describe('issue 20: closed periods', () => {
  it('a period date that is not a day: INVALID_FIELD (through) quoting it, exit 1, nothing closed', async () => {
    for (const through of ['2024-02-30', '2024', '31/12/2024']) {
      const { exit, error } = await refused(() => runInProcess('txa period close', close.run, { through }, json()));
      expect([through, exit, error.code, error.field]).toEqual([through, 1, 'INVALID_FIELD', 'through']);
      expect(error.message).toBe(`through must be a day in the format YYYY-MM-DD, got '${through}'`);
    }
  });

  it('a reopen without a reason: USAGE_ERROR (reason) from the CLI (exit 2); from the API 400 naming reason; the period stays closed', async () => {
    expect((await runInProcess('txa period close', close.run, { through: '2023-12-31' }, json())).exitCode).toBe(0);
    const cli = await refused(() => runInProcess('txa period reopen', reopen.run, { through: '2023-12-31' }, json()));
    expect([cli.exit, cli.error.code, cli.error.field]).toEqual([2, 'USAGE_ERROR', 'reason']);
    expect(cli.error.message).toMatch(/^--reason is required/);
    const key = l.key('full');
    for (const payload of [
      { workspace_id: l.ws, through: '2023-12-31' },
      { workspace_id: l.ws, through: '2023-12-31', reason: '   ' },
    ]) {
      const before = snapshot(l.path, USAGE);
      const res = await app.inject({ method: 'POST', url: '/api/v1/periods/reopen', headers: { authorization: `Bearer ${key}` }, payload });
      const { error } = JSON.parse(res.body);
      expect([res.statusCode, error.field]).toEqual([400, 'reason']);
      expect(['MISSING_REQUIRED_FIELD', 'INVALID_FIELD']).toContain(error.code);
      expect(snapshot(l.path, USAGE)).toEqual(before);
    }
  });
});

describe('issue 20: 1099-DA files (txa import --format 1099da --wallet-id)', () => {
  it('a missing column: IMPORT_FAILED naming it, exit 1, no broker line stored', async () => {
    const { exit, error } = await refused(() =>
      brokerLines('da-col.csv', 'date_sold,asset,units,proceeds,cost_basis,basis_reported\n2025-03-05,ETH,0.4,1200,450,yes\n'),
    );
    expect([exit, error.code, error.field]).toEqual([1, 'IMPORT_FAILED', 'date_acquired']);
    expect(error.message).toContain('date_acquired');
  });

  it('a non-number: IMPORT_FAILED with the line, the field and the value, no broker line stored', async () => {
    const { exit, error } = await refused(() => brokerLines('da-nan.csv', `${HEADER}\n2025-03-05,,ETH,0.4,1200.00,450.00,yes\n2025-03-06,,ETH,0.1,lots,,no\n`));
    expect([exit, error.code]).toEqual([1, 'IMPORT_FAILED']);
    expect(error.errors).toEqual([expect.objectContaining({ line: 3, field: 'proceeds' })]);
    expect(JSON.stringify(error.errors)).toContain("'lots'");
  });

  it('the contract form --wallet-id is taken (its alias --wallet too); none is USAGE_ERROR naming --wallet-id', async () => {
    const good = `${HEADER}\n03/05/2025,01/10/2024,ETH,0.40000000,1200.00,450.00,yes\n`;
    const r = await brokerLines('da-good.csv', good);
    expect([r.exitCode, JSON.parse(r.stdout).data]).toEqual([
      0,
      { format: '1099da', wallet_id: broker, imported: 1, replaced: 0, years: [2025], dry_run: false },
    ]);
    const none = await refused(() => runInProcess('txa import', importCmd.run, { file: file('da-good.csv', good), format: '1099da' }, json()));
    expect([none.exit, none.error.code, none.error.field]).toEqual([2, 'USAGE_ERROR', 'wallet-id']);
  });
});

describe('issue 20: report options', () => {
  it('a bad value of a report option from the CLI: INVALID_FIELD (options.X) listing what it takes, no export stored', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ feeTreatment: 'bogus' }, 'options.fee_treatment', /must be one of adjust, separate$/],
      [{ basisScope: 'pool' }, 'options.basis_scope', /must be one of wallet, universal$/],
      [{ costBasis: 'random' }, 'options.cost_basis', /must be one of fifo, lifo, hifo, specific$/],
      [{ reportType: 'positions', at: 'yesterday' }, 'options.at', /got 'yesterday'$/],
    ];
    for (const [o, field, message] of cases) {
      const { exit, error } = await refused(() => exporting(o));
      expect([exit, error.code, error.field]).toEqual([1, 'INVALID_FIELD', field]);
      expect(error.message).toMatch(message);
    }
  });

  it('an unknown report option in the API body: 400 INVALID_FIELD naming it, no export stored', async () => {
    const key = l.key('full');
    const before = snapshot(l.path, USAGE);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/exports',
      headers: { authorization: `Bearer ${key}` },
      payload: { workspace_id: l.ws, format: 'csv', report_type: 'tax', options: { fee_treatmnt: 'adjust' } },
    });
    const { error } = JSON.parse(res.body);
    expect([res.statusCode, error.code]).toEqual([400, 'INVALID_FIELD']);
    expect(error.field).toMatch(/^options/);
    expect(error.message).toContain('fee_treatmnt');
    expect(snapshot(l.path, USAGE)).toEqual(before);
  });
});
