/** A long write by another process (a CLI import) must not stall the API's reads. */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { WS, seedLedger } from './seed.js';
import { startServe } from './serve-process.js';

describe('serve under another writer', () => {
  it('keeps answering GETs while another connection holds the write lock', async () => {
    const s = seedLedger();
    const key = s.key();
    s.engine.close();
    const srv = await startServe(s.path);
    try {
      const get = async () => {
        const t = Date.now();
        const res = await fetch(`${srv.url}/api/v1/transactions?workspace_id=${WS}&limit=5`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        return Date.now() - t;
      };
      await get();
      const holder = new Database(s.path);
      holder.exec('BEGIN IMMEDIATE');
      const times: number[] = [];
      const until = Date.now() + 3000; // spans several counter flushes
      try {
        while (Date.now() < until) {
          times.push(await get());
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
      expect(times.length).toBeGreaterThan(20);
      expect(Math.max(...times)).toBeLessThan(500);
    } finally {
      await srv.stop();
    }
  });
});
