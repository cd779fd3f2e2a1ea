/**
 * Fault injection: `kill -9` at seeded random moments of a real import, a real export and real
 * webhook delivery by `txa serve`, each on a real ledger file, then the checks a crash must pass:
 * `PRAGMA integrity_check`, an import's rows all there or none, every transaction's
 * `transaction.created` exactly once, a killed export failed by the next command (INTERRUPTED) so
 * it blocks nothing, whole export files with one `export.completed` each and no partial file left,
 * webhook deliveries neither lost nor invented, and what the API confirmed
 * still there. The kill moments are seeded; where one lands depends on the machine's speed, so
 * each check holds wherever it lands. TXA_FUZZ_CASES (rounds) / TXA_FUZZ_SEED: see fuzz-run.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createKey } from '../../src/engine/keys.js';
import { createWebhook } from '../../src/engine/webhooks.js';
import { datasetHeader, fixtureText } from '../../src/fixtures/fixture-file.js';
import { ledgerSpec } from '../../src/fixtures/spec.js';
import { BIN } from '../helpers/cli.js';
import { startServe, until, type ServeProcess } from '../server/serve-process.js';
import { fuzzRun, reportFigures } from './fuzz-run.js';
import { count, createdEventProblems, integrityProblems, withLedger } from './ledger-check.js';

const run = fuzzRun('faults', 6);
const ROWS = Number(process.env.TXA_FAULT_ROWS ?? 2_000);
const spec = ledgerSpec(ROWS, 11);
const WS = spec.workspace.id;
/** Latest kill moment (ms after spawn): past a whole run on a loaded machine (about 1 ms a row), so some runs end first. */
const MAX_DELAY_MS = 2_000 + ROWS;

const dir = mkdtempSync(join(tmpdir(), 'txa-faults-'));
const base = join(dir, 'base.db');
const imported = join(dir, 'imported.db');
const file = join(dir, 'rows.json');
const env = {
  NO_COLOR: '1',
  TXA_BASE_URL: '',
  TXA_API_KEY: '',
  TXA_PROFILE: '',
  TXA_CONFIG_DIR: join(dir, 'config'),
  TXA_WORKSPACE: WS,
  TXA_WEBHOOK_TIMEOUT_MS: '5000',
};

/** A webhook receiver on 127.0.0.1 that answers 200 after `delayMs` and keeps every call. */
interface Receiver {
  url: string;
  calls: { id: string; body: string }[];
  delayMs: number;
  server: Server;
}
let rx: Receiver;

beforeAll(async () => {
  const header = datasetHeader(spec);
  const e = Engine.open(base);
  createWorkspace(e, { id: WS, name: header.workspace.name, tier: 'enterprise' });
  e.write(() => header.wallets.forEach((w) => insertNewWallet(e, WS, w)));
  e.close();
  writeFileSync(file, fixtureText(spec));
  copyFileSync(base, imported);
  const r = await execa(BIN, ['--db', imported, 'import', file], { env, reject: false });
  expect(r.exitCode).toBe(0);
  const calls: Receiver['calls'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        calls.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
        setTimeout(() => res.writeHead(200).end(), rx.delayMs);
      });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  rx = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, calls, delayMs: 0, server };
}, 120_000);

afterAll(async () => {
  rx?.server.closeAllConnections();
  await new Promise<void>((ok) => (rx ? rx.server.close(() => ok()) : ok()));
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Runs `txa` and sends SIGKILL after `delayMs` unless it ended first. */
async function killAfter(args: string[], delayMs: number): Promise<{ killed: boolean; exitCode: number | undefined }> {
  const child = execa(BIN, args, { env, reject: false, stdin: 'ignore' });
  const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
  const r = await child;
  clearTimeout(timer);
  return { killed: r.signal === 'SIGKILL', exitCode: r.exitCode };
}

function fresh(from: string, name: string): string {
  const path = join(dir, name);
  copyFileSync(from, path);
  return path;
}

describe('kill -9 during an import', () => {
  it(`leaves all ${ROWS} rows or none, each with one transaction.created, in ${run.indexes.length} seeded rounds; a re-run then imports them all`, async () => {
    const outcomes = { none: 0, all: 0, other: 0 };
    const problems: string[] = [];
    for (const i of run.indexes) {
      const ledger = fresh(base, `import-${i}.db`);
      const delay = run.rng(i).int(0, MAX_DELAY_MS);
      const r = await killAfter(['--db', ledger, 'import', file], delay);
      const state = withLedger(ledger, (db) => ({
        integrity: integrityProblems(db),
        rows: count(db, 'SELECT count(*) FROM transactions'),
        tags: count(db, 'SELECT count(*) FROM tags'),
        events: createdEventProblems(db),
      }));
      const kind = state.rows === 0 ? 'none' : state.rows === ROWS ? 'all' : 'other';
      outcomes[kind]++;
      const at = `round ${i} (kill at ${delay} ms, ${r.killed ? 'killed' : `exited ${r.exitCode}`})`;
      if (kind === 'other') problems.push(`${at}: ${state.rows} of ${ROWS} rows`);
      if ((state.rows === 0) !== (state.tags === 0)) problems.push(`${at}: ${state.rows} rows but ${state.tags} tags`);
      for (const p of [...state.integrity, ...state.events]) problems.push(`${at}: ${p}`);
      const again = await execa(BIN, ['--db', ledger, 'import', file], { env, reject: false });
      const after = withLedger(ledger, (db) => ({
        integrity: integrityProblems(db),
        rows: count(db, 'SELECT count(*) FROM transactions'),
        events: createdEventProblems(db),
      }));
      if (again.exitCode !== 0 || after.rows !== ROWS || after.integrity.length || after.events.length) {
        problems.push(`${at}, re-run: exit ${again.exitCode}, ${after.rows} rows, ${[...after.integrity, ...after.events].join('; ')}`);
      }
      rmSync(ledger, { force: true });
    }
    reportFigures('faults-import', { seed: run.seed, rounds: run.indexes.length, rows: ROWS, outcomes, violations: problems.length });
    expect(problems).toEqual([]);
  }, 600_000);
});

interface ExportState {
  id: string;
  status: string;
  file_name: string | null;
  file_size: number | null;
  sha256: string | null;
  delivery: string;
  error_code: string | null;
}

function exportsOf(ledger: string): { exports: ExportState[]; completedEvents: Map<string, string[]>; integrity: string[]; rows: number } {
  return withLedger(ledger, (db) => {
    const events = db.prepare("SELECT subject_id, id FROM events WHERE type = 'export.completed'").all() as { subject_id: string; id: string }[];
    const completedEvents = new Map<string, string[]>();
    for (const e of events) completedEvents.set(e.subject_id, [...(completedEvents.get(e.subject_id) ?? []), e.id]);
    return {
      exports: db.prepare('SELECT id, status, file_name, file_size, sha256, delivery, error_code FROM exports').all() as ExportState[],
      completedEvents,
      integrity: integrityProblems(db),
      rows: count(db, 'SELECT count(*) FROM transactions'),
    };
  });
}

/** A completed export's file must be whole: its recorded size and SHA-256. */
function fileProblem(ledger: string, e: ExportState): string | null {
  if (e.status !== 'completed') return null;
  const path = join(`${ledger}.files`, 'exports', e.file_name ?? '');
  if (!existsSync(path)) return `completed export ${e.id} has no file`;
  const data = readFileSync(path);
  if (data.length !== e.file_size || createHash('sha256').update(data).digest('hex') !== e.sha256)
    return `completed export ${e.id}: file differs from its record`;
  return null;
}

/** Files in the ledger's export folder that no completed export owns (a killed job's partial file must go). */
function strayFiles(ledger: string, exports: ExportState[]): string[] {
  const folder = join(`${ledger}.files`, 'exports');
  const owned = new Set(exports.filter((e) => e.status === 'completed').map((e) => e.file_name));
  return existsSync(folder) ? readdirSync(folder).filter((name) => !owned.has(name)) : [];
}

describe('kill -9 during CLI exports', () => {
  it('never corrupts the ledger; the next export command fails the killed job (INTERRUPTED), so it blocks nothing; whole files, one export.completed each', async () => {
    const ledger = fresh(imported, 'exports.db');
    const problems: string[] = [];
    const outcomes = { killed: 0, exited: 0, completed: 0, interrupted: 0 };
    for (const i of run.indexes) {
      const rng = run.rng(1000 + i);
      const format = rng.pick(['csv', 'json', 'pdf']);
      const args = ['--db', ledger, 'export', 'create', '--format', format, ...(format === 'pdf' ? ['--report-type', rng.pick(['summary', 'detailed'])] : [])];
      const webhook = rng.chance(60);
      if (webhook) args.push('--webhook-url', rx.url);
      else args.push('--out', join(dir, `out-${i}.${format}`));
      const known = new Set(exportsOf(ledger).exports.map((e) => e.id));
      const r = await killAfter(args, rng.int(0, MAX_DELAY_MS));
      outcomes[r.killed ? 'killed' : 'exited']++;
      const at = `round ${i} (${args.slice(4).join(' ')}, ${r.killed ? 'killed' : `exit ${r.exitCode}`})`;
      // A run that was not killed had a free workspace: it must have succeeded.
      if (!r.killed && r.exitCode !== 0) problems.push(`${at}: the export failed`);
      // The next command that reads exports looks for jobs whose process is gone (docs/exports.md).
      const look = await execa(BIN, ['--db', ledger, 'export', 'list', '--json'], { env, reject: false });
      if (look.exitCode !== 0) problems.push(`${at}: export list exited ${look.exitCode}: ${look.stderr.slice(0, 200)}`);
      const s = exportsOf(ledger);
      for (const p of s.integrity) problems.push(`${at}: ${p}`);
      if (s.rows !== ROWS) problems.push(`${at}: ${s.rows} transactions, not ${ROWS}`);
      for (const [id, events] of s.completedEvents) if (events.length > 1) problems.push(`${at}: export ${id} has ${events.length} export.completed events`);
      for (const e of s.exports) {
        const p = fileProblem(ledger, e);
        if (p) problems.push(`${at}: ${p}`);
        if (e.status === 'queued' || e.status === 'processing') problems.push(`${at}: export ${e.id} still ${e.status} after the next command`);
      }
      for (const name of strayFiles(ledger, s.exports)) problems.push(`${at}: stray file ${name} in the export folder`);
      for (const e of s.exports.filter((x) => !known.has(x.id))) {
        const events = s.completedEvents.get(e.id) ?? [];
        if (e.status === 'completed') outcomes.completed++;
        else if (e.status === 'failed' && e.error_code === 'INTERRUPTED' && r.killed) outcomes.interrupted++;
        else problems.push(`${at}: its export ${e.id} is ${e.status} (${e.error_code})`);
        // Only a webhook export has the event, once completed; a run that ended made its call.
        if (events.length !== (webhook && e.status === 'completed' ? 1 : 0))
          problems.push(`${at}: ${e.status} export ${e.id} has ${events.length} export.completed events`);
        if (webhook && !r.killed && !events.every((id) => rx.calls.some((c) => c.id === id)))
          problems.push(`${at}: export ${e.id}'s export.completed never reached the receiver`);
      }
    }
    const logged = new Set([...exportsOf(ledger).completedEvents.values()].flat());
    for (const c of rx.calls) if (!logged.has(c.id)) problems.push(`the receiver got ${c.id}, which is in no log`);
    reportFigures('faults-export', { seed: run.seed, rounds: run.indexes.length, rows: ROWS, outcomes, calls: rx.calls.length, violations: problems.length });
    expect(problems).toEqual([]);
  }, 600_000);
});

describe('kill -9 of txa serve during webhook delivery', () => {
  it('loses no confirmed write and no delivery, invents none, and re-sends only with the same webhook-id and body', async () => {
    const ledger = fresh(base, 'delivery.db');
    const e = Engine.open(ledger);
    const key = createKey(e, WS, { access: 'full' }).key;
    createWebhook(e, WS, { url: rx.url, events: ['*'] });
    // Events from here on have a delivery each; the wallets' events before the subscription none.
    const firstSeq = count(e.db, 'SELECT coalesce(max(seq), 0) + 1 FROM events');
    e.close();
    rx.calls.length = 0;
    const confirmed: string[] = [];
    const problems: string[] = [];
    let srv: ServeProcess | undefined;
    for (const i of run.indexes) {
      const rng = run.rng(2000 + i);
      rx.delayMs = rng.int(0, 200);
      srv = await startServe(ledger, ['--allow-private-webhooks']);
      const url = srv.url;
      // A burst of writes, each appending an event with one delivery; the kill lands among them.
      const burst = Array.from({ length: rng.int(5, 30) }, (_, n) =>
        fetch(`${url}/api/v1/tags`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ workspace_id: WS, name: `r${i} t${n}`, type: 'income' }),
        })
          .then(async (res) => (res.status === 201 ? confirmed.push(((await res.json()) as any).data.id) : undefined))
          .catch(() => undefined),
      );
      await sleep(rng.int(0, 1_500));
      await srv.stop('SIGKILL');
      await Promise.all(burst);
    }
    rx.delayMs = 0;
    srv = await startServe(ledger, ['--allow-private-webhooks']);
    try {
      await until(
        () => withLedger(ledger, (db) => count(db, "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'") === 0),
        120_000,
        'every delivery to end',
      );
    } finally {
      await srv.stop();
    }
    const end = withLedger(ledger, (db) => ({
      integrity: integrityProblems(db),
      events: db
        .prepare(
          'SELECT e.id, e.payload, (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries, (SELECT group_concat(d.status) FROM webhook_deliveries d WHERE d.event_id = e.id) AS status FROM events e WHERE e.seq >= ?',
        )
        .all(firstSeq) as { id: string; payload: string; deliveries: number; status: string }[],
      missingTags: confirmed.filter(
        (id) => count(db, "SELECT count(*) FROM tags t JOIN events e ON e.subject_id = t.id AND e.type = 'tag.created' WHERE t.id = ?", id) !== 1,
      ),
    }));
    problems.push(...end.integrity);
    if (end.missingTags.length) problems.push(`${end.missingTags.length} tags confirmed with 201 are gone or lack their event`);
    const byId = new Map<string, Set<string>>();
    for (const c of rx.calls) byId.set(c.id, (byId.get(c.id) ?? new Set()).add(c.body));
    for (const ev of end.events) {
      if (ev.deliveries !== 1) problems.push(`event ${ev.id} has ${ev.deliveries} deliveries`);
      if (ev.status !== 'succeeded') problems.push(`event ${ev.id} delivery ${ev.status}`);
      if (!byId.has(ev.id)) problems.push(`event ${ev.id} never reached the receiver`);
    }
    const logged = new Set(end.events.map((ev) => ev.id));
    for (const [id, bodies] of byId) {
      if (!logged.has(id)) problems.push(`the receiver got ${id}, which is in no log`);
      if (bodies.size > 1) problems.push(`${id} was sent with ${bodies.size} different bodies`);
    }
    reportFigures('faults-delivery', {
      seed: run.seed,
      rounds: run.indexes.length,
      confirmed: confirmed.length,
      events: end.events.length,
      calls: rx.calls.length,
      repeats: rx.calls.length - byId.size,
      violations: problems.length,
    });
    expect(problems).toEqual([]);
  }, 600_000);
});
