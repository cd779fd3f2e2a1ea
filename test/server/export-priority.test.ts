/**
 * An export running in `txa serve` does not hold up the API: a list request is answered while
 * the worker is still writing the file, and (on Linux, where the nice value is per thread) the
 * export's threads run at a lower priority than the request thread, so the list route keeps its
 * latency during a long export (bench/http-export.mjs measures it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { WS, seedLedger } from './seed.js';
import { startServe, until, api } from './serve-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The nice value of each thread of process `pid`, by thread id (field 19 of /proc/…/stat). */
function threadNices(pid: number): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces: state is field 3, nice field 19.
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}

describe('an export running in serve', () => {
  it('a list request is answered while the export is still processing; the export threads are niced below the request thread (Linux)', async () => {
    const s = seedLedger({ rows: 20_000 });
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    cleanups.push(() => srv.stop());

    // A download export: POST answers once the worker has written the whole file.
    const posting = api(srv, key, 'POST', '/exports', { workspace_id: WS, format: 'pdf', report_type: 'detailed' });
    const running = await until(
      async () => {
        const r = await api(srv, key, 'GET', `/exports?workspace_id=${WS}`);
        return (r.body.data as any[]).find((e) => e.status === 'processing' && e.progress > 0);
      },
      60_000,
      'the export to run',
    );

    const list = await api(srv, key, 'GET', `/transactions?workspace_id=${WS}&limit=5`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(5);
    expect((await api(srv, key, 'GET', `/exports/${running.id}`)).body.data.status).toBe('processing');

    if (process.platform === 'linux') {
      const pid = srv.proc.pid!;
      const nices = threadNices(pid);
      const main = nices.get(pid)!;
      expect(main).toBe(getPriority()); // the request thread keeps the nice value serve started with
      expect([...nices.values()].some((n) => n > main)).toBe(true);
    }

    const cancelled = await api(srv, key, 'POST', `/exports/${running.id}/cancel`);
    expect(cancelled.status).toBe(200);
    await posting;
  });
});
