/** Tier quotas of docs/reference/api.md "Tier limits": rows per export, exports per hour, concurrent exports. */
import { describe, test, expect } from 'vitest';
import { tempLedger, addWallets, addMany } from './seed.js';
import { createExport, listExports } from '../../src/engine/exports.js';
import { txaRejectionOf } from '../helpers/errors.js';

describe('export quotas', () => {
  test('free tier: 1,001 matching rows is EXPORT_TOO_LARGE (413, exit 5) with both numbers; 1,000 is fine', async () => {
    const { engine, ws } = tempLedger('free');
    const w = addWallets(engine, ws, ['Main']);
    addMany(engine, ws, w, 1001);
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv' }));
    expect(err.code).toBe('EXPORT_TOO_LARGE');
    expect(err.status).toBe(413);
    expect(err.exitCode).toBe(5);
    expect(err.toBody().error).toMatchObject({ max_transactions: 1000, requested_transactions: 1001 });
    const rec = await createExport(engine, ws, { format: 'csv', filters: { direction: 'inflow' } });
    expect(rec.transaction_count).toBe(501);
    expect(listExports(engine, ws, {}).pagination.total).toBe(1);
  });

  test('free tier: the 11th export within an hour is EXPORT_RATE_LIMIT_EXCEEDED with retry_after', async () => {
    const { engine, ws } = tempLedger('free');
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 3);
    for (let i = 0; i < 10; i++) await createExport(engine, ws, { format: 'json' });
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'json' }));
    expect(err.code).toBe('EXPORT_RATE_LIMIT_EXCEEDED');
    expect(err.status).toBe(429);
    expect(err.exitCode).toBe(5);
    expect(err.extra?.retry_after).toBeGreaterThan(0);
    expect(err.extra?.retry_after).toBeLessThanOrEqual(3600);
  });

  test('an hour later the hourly budget is free again', async () => {
    const { engine, ws } = tempLedger('free');
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 3);
    const saved = process.env.TXA_NOW;
    try {
      process.env.TXA_NOW = '2030-01-01T00:00:00Z';
      for (let i = 0; i < 10; i++) await createExport(engine, ws, { format: 'csv' });
      process.env.TXA_NOW = '2030-01-01T01:00:01Z';
      expect((await createExport(engine, ws, { format: 'csv' })).status).toBe('completed');
    } finally {
      if (saved === undefined) delete process.env.TXA_NOW;
      else process.env.TXA_NOW = saved;
    }
  });

  test('free tier: a second export while one is queued is CONCURRENT_EXPORT_LIMIT', async () => {
    const { engine, ws } = tempLedger('free');
    addMany(engine, ws, addWallets(engine, ws, ['Main']), 3);
    const queued = await createExport(engine, ws, { format: 'csv', delivery: { method: 'webhook', webhook_url: 'http://127.0.0.1:9/hook' } });
    expect(queued.status).toBe('queued');
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv' }));
    expect(err.code).toBe('CONCURRENT_EXPORT_LIMIT');
    expect(err.exitCode).toBe(5);
    // When to try again: the queued export's estimated completion, at least a second.
    expect(err.extra?.retry_after).toBeGreaterThanOrEqual(1);
    // pro allows 5 at once
    const pro = tempLedger('pro');
    addMany(pro.engine, pro.ws, addWallets(pro.engine, pro.ws, ['Main']), 3);
    for (let i = 0; i < 5; i++)
      await createExport(pro.engine, pro.ws, { format: 'csv', delivery: { method: 'webhook', webhook_url: 'http://127.0.0.1:9/hook' } });
    expect((await txaRejectionOf(createExport(pro.engine, pro.ws, { format: 'csv' }))).code).toBe('CONCURRENT_EXPORT_LIMIT');
  });
});
