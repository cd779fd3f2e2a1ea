/**
 * Scheduled runs on the engine (docs/server.md "Scheduled reports"): a second process that passed
 * the "not made yet" check too is refused by the UNIQUE (schedule, period) in its own transaction,
 * which rolls back its export with it; and `run-due` makes every due run when more are due at once
 * than the tier runs exports together.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { AlreadyRun, createDueRuns, createSchedule, makeRun, runDue } from '../../src/engine/schedules.js';
import { listExports } from '../../src/engine/exports.js';
import { listEvents } from '../../src/engine/events.js';
import { getScheduleRow } from '../../src/store/schedules.js';
import { latestDue } from '../../src/core/schedule-periods.js';

let calls = 0;
let rx: Server;
let hook: string;
beforeAll(async () => {
  rx = createServer((req, res) => {
    req.resume().on('end', () => {
      calls++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/r`;
});
afterAll(() => new Promise<void>((r) => rx.close(() => r())));
afterEach(() => {
  delete process.env.TXA_NOW;
});

function ledger(): { path: string; ws: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'txa-sched-')), 'ledger.db');
  const engine = Engine.open(path);
  const ws = createWorkspace(engine, { name: 'Pro', tier: 'pro' }).id;
  engine.close();
  return { path, ws };
}

const body = (name: string) => ({ name, every: 'monthly', format: 'json', delivery: { method: 'webhook', webhook_url: hook } });

describe('claiming a period', () => {
  it('a second process past the check is refused by the UNIQUE index: no second run, no second export, no second event', async () => {
    const { path, ws } = ledger();
    const a = Engine.open(path);
    const b = Engine.open(path);
    try {
      process.env.TXA_NOW = '2026-01-15T00:00:00Z';
      const id = createSchedule(a, ws, body('M')).id;
      process.env.TXA_NOW = '2026-04-20T00:00:00Z';
      const made = await createDueRuns(a);
      expect(made.runs.map((r) => r.period_start)).toEqual(['2026-03-01']);
      const row = getScheduleRow(b.db, ws, id)!;
      await expect(makeRun(b, row, latestDue('monthly', 'UTC', Date.parse('2026-04-20T00:00:00Z')), false)).rejects.toBeInstanceOf(AlreadyRun);
      expect(listExports(b, ws, {}).pagination.total).toBe(1);
      expect(listEvents(b, ws, { type: 'schedule.run' }).data).toHaveLength(1);
      // And the next check of either makes nothing.
      expect((await createDueRuns(b)).runs).toEqual([]);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('run-due', () => {
  it('makes all of seven due schedules though a pro workspace runs five exports at once', async () => {
    const { path, ws } = ledger();
    const engine = Engine.open(path);
    try {
      process.env.TXA_NOW = '2026-01-15T00:00:00Z';
      for (let i = 0; i < 7; i++) createSchedule(engine, ws, body(`M${i}`));
      process.env.TXA_NOW = '2026-02-03T00:00:00Z';
      const before = calls;
      const out = await runDue(engine);
      expect(out.failures).toEqual([]);
      expect(out.runs).toHaveLength(7);
      expect(out.runs.every((r) => r.export.status === 'completed' && r.period_start === '2026-01-01')).toBe(true);
      expect(calls - before).toBe(7);
    } finally {
      engine.close();
    }
  });
});
