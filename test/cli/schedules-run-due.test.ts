/**
 * `txa schedules run-due` killed in the middle of a scheduled run (docs/server.md "Scheduled
 * reports", "Killed mid-run"): the next `run-due` finishes the same export under the same run, and
 * the report is delivered exactly once; a third one finds nothing to do.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule } from '../../src/engine/schedules.js';
import { Engine } from '../../src/engine/engine.js';
import { WS, seedLedger } from '../server/seed.js';
import { until } from '../server/serve-process.js';
import { BIN } from '../helpers/cli.js';

const calls: string[] = [];
const rx = createServer((req, res) => {
  let body = '';
  req
    .on('data', (d) => (body += d))
    .on('end', () => {
      calls.push(body);
      res.writeHead(200).end();
    });
});
let hook: string;
beforeAll(async () => {
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/reports`;
});
afterAll(() => new Promise<void>((r) => rx.close(() => r())));

describe('schedules run-due, killed', () => {
  it('is finished by the next run-due: one export, one call', async () => {
    // 16,000 rows over 2024: about 4,000 in its first quarter, a PDF that takes a few seconds.
    const s = seedLedger({ rows: 16_000 });
    process.env.TXA_NOW = '2024-01-02T00:00:00Z';
    createSchedule(s.engine, WS, { name: 'Q', every: 'quarterly', format: 'pdf', report_type: 'detailed', delivery: { method: 'webhook', webhook_url: hook } });
    delete process.env.TXA_NOW;
    s.engine.close();
    const env = { TXA_NOW: '2024-04-02T00:00:00Z', TXA_CONFIG_DIR: `${s.path}.config`, TXA_BASE_URL: '', TXA_API_KEY: '', NO_COLOR: '1' };
    const runDue = () => execa(BIN, ['--db', s.path, 'schedules', 'run-due', '--json'], { env, reject: false, stdin: 'ignore' });

    const engine = Engine.open(s.path);
    try {
      const first = runDue();
      const exportId = await until(
        () => {
          const row = engine.db.prepare("SELECT id, progress FROM exports WHERE status = 'processing'").get() as { id: string; progress: number } | undefined;
          return row && row.progress > 0 && row.id;
        },
        60_000,
        'the run in progress',
      );
      first.kill('SIGKILL');
      await first;
      expect(calls).toHaveLength(0);

      const second = await runDue();
      expect(second.exitCode, second.stderr).toBe(0);
      expect(JSON.parse(String(second.stdout)).data).toMatchObject({ runs: [], resumed: [exportId], failed: [] });
      expect(calls).toHaveLength(1);
      expect(JSON.parse(calls[0]!)).toMatchObject({ event: 'export.completed', export_id: exportId, format: 'pdf' });

      const third = await runDue();
      expect(JSON.parse(String(third.stdout)).data).toEqual({ runs: [], resumed: [], failed: [] });
      expect(calls).toHaveLength(1);
      expect(engine.db.prepare('SELECT count(*) FROM exports').pluck().get()).toBe(1);
      expect(engine.db.prepare("SELECT count(*) FROM events WHERE type = 'schedule.run'").pluck().get()).toBe(1);
    } finally {
      engine.close();
    }
  });
});
