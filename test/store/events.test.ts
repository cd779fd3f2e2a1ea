import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, writeTx, type Db } from '../../src/store/db.js';
import { EventLog, type EventRow } from '../../src/store/events.js';
import { newId, newSortableId } from '../../src/core/ids.js';

let db: Db;
let log: EventLog;

beforeEach(() => {
  db = openDb(join(mkdtempSync(join(tmpdir(), 'txa-events-')), 'ledger.db'));
  for (const ws of ['ws_a', 'ws_b']) {
    db.prepare("INSERT INTO workspaces (id, name, tier, base_currency, rate_limit, created_at) VALUES (?, ?, 'free', 'USD', NULL, '2024-01-01T00:00:00Z')").run(
      ws,
      ws,
    );
  }
  log = new EventLog(db);
});
afterEach(() => db.close());

const subscribe = (workspaceId: string, events: string[]) =>
  db
    .prepare("INSERT INTO webhooks VALUES (?, ?, 'https://example.test/hook', ?, 'whsec_x', '2024-01-01T00:00:00Z')")
    .run(newId('wh'), workspaceId, JSON.stringify(events));

const stored = () => db.prepare('SELECT * FROM events ORDER BY seq').all() as EventRow[];

describe('EventLog.batch', () => {
  const bodies = Array.from({ length: 250 }, (_, i) => ({
    subjectId: `tx_${i}`,
    body: { transaction: { id: `tx_${i}`, amount: `${i}.5`, notes: i % 2 ? null : 'a "quoted" note ✓', tags: [] } },
  }));
  const appendAll = (workspaceId: string, list: typeof bodies) => {
    const add = log.batch(workspaceId, 'transaction.created');
    return list.map((e) => add(e.subjectId, e.body));
  };

  it('writes one row per event with distinct ids in seq order, consecutive seqs and the event payload of docs/server.md', () => {
    const rows = writeTx(db, () => appendAll('ws_a', bodies));
    expect(stored()).toEqual(rows);
    expect(rows).toHaveLength(250);
    expect(new Set(rows.map((r) => r.id)).size).toBe(250);
    expect(rows.map((r) => r.id)).toEqual(rows.map((r) => r.id).sort());
    for (const [i, row] of rows.entries()) {
      expect(row.id).toMatch(/^evt_[0-9a-f]{20}$/);
      expect(row.seq).toBe(rows[0]!.seq + i);
      expect(row.subject_id).toBe(`tx_${i}`);
      // Byte for byte the text JSON.stringify gives the envelope followed by the body.
      expect(row.payload).toBe(
        JSON.stringify({
          event: 'transaction.created',
          event_id: row.id,
          created_at: row.created_at,
          workspace_id: 'ws_a',
          ...bodies[i]!.body,
        }),
      );
    }
    expect(rows[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('tells listeners of each event in order, as append does', () => {
    const seen: EventRow[] = [];
    log.onAppend((e) => seen.push(e));
    const rows = writeTx(db, () => [log.append('ws_a', 'tag.created', 'tag_1', {}), ...appendAll('ws_a', bodies.slice(0, 3))]);
    expect(seen).toEqual(rows);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ event: 'tag.created', event_id: rows[0]!.id, created_at: rows[0]!.created_at, workspace_id: 'ws_a' });
  });

  it('schedules a delivery per event and matching subscription through the trigger', () => {
    subscribe('ws_a', ['transaction.created']);
    subscribe('ws_a', ['*']);
    subscribe('ws_a', ['tag.created']);
    subscribe('ws_b', ['*']);
    const rows = writeTx(db, () => appendAll('ws_a', bodies.slice(0, 120)));
    const deliveries = db.prepare('SELECT event_id, count(*) AS n FROM webhook_deliveries GROUP BY event_id').all() as { event_id: string; n: number }[];
    expect(deliveries).toHaveLength(120);
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(deliveries.every((d) => d.n === 2)).toBe(true);
  });

  it('refuses to write outside a transaction, and an empty batch writes nothing', () => {
    expect(() => appendAll('ws_a', bodies.slice(0, 1))).toThrow(/inside the transaction/);
    expect(() => log.append('ws_a', 'tag.created', 'tag_1', {})).toThrow(/inside the transaction/);
    expect(writeTx(db, () => appendAll('ws_a', []))).toEqual([]);
    expect(stored()).toEqual([]);
  });
});

describe('EventLog.bulk', () => {
  const bodies = Array.from({ length: 123 }, (_, i) => ({
    subjectId: `tx_${i}`,
    body: { transaction: { id: `tx_${i}`, notes: i % 2 ? null : 'a "quoted" note ✓' } },
  }));
  /** Appends through bulk (two full statements and 23 left for end()); returns the rows the listeners heard. */
  const bulkAll = (workspaceId: string, list: typeof bodies) => {
    const heard: EventRow[] = [];
    log.onAppend((e) => heard.push(e));
    const writer = log.bulk(workspaceId, 'transaction.created');
    for (const e of list) writer.add(e.subjectId, e.body);
    writer.end();
    return heard;
  };

  it('writes the rows batch would, with the seqs they get, and tells listeners of each in order', () => {
    const rows = writeTx(db, () => {
      log.append('ws_a', 'tag.created', 'tag_1', {});
      const heard = bulkAll('ws_a', bodies);
      log.append('ws_a', 'tag.created', 'tag_2', {});
      return heard;
    });
    expect(rows.map((r) => r.subject_id)).toEqual(['tx_0', ...bodies.slice(1).map((b) => b.subjectId), 'tag_2']);
    const all = stored();
    expect(all).toHaveLength(125);
    expect(all.slice(1)).toEqual(rows);
    for (const [i, row] of rows.slice(0, -1).entries()) {
      expect(row.seq).toBe(all[0]!.seq + 1 + i);
      expect(row.payload).toBe(
        JSON.stringify({ event: 'transaction.created', event_id: row.id, created_at: row.created_at, workspace_id: 'ws_a', ...bodies[i]!.body }),
      );
    }
  });

  it('addJson writes the payload add writes for the body its JSON text is (an empty body too)', () => {
    const rows = writeTx(db, () => {
      const heard: EventRow[] = [];
      log.onAppend((e) => heard.push(e));
      const writer = log.bulk('ws_a', 'transaction.created');
      for (const e of bodies.slice(0, 60)) writer.addJson(e.subjectId, JSON.stringify(e.body));
      writer.addJson('tx_empty', '{}');
      writer.end();
      return heard;
    });
    expect(rows).toHaveLength(61);
    for (const [i, row] of rows.entries()) {
      const body = i < 60 ? bodies[i]!.body : {};
      expect(row.payload).toBe(JSON.stringify({ event: 'transaction.created', event_id: row.id, created_at: row.created_at, workspace_id: 'ws_a', ...body }));
    }
  });

  it('schedules a delivery per event and matching subscription, and end() with nothing left writes nothing', () => {
    subscribe('ws_a', ['transaction.created']);
    subscribe('ws_a', ['*']);
    subscribe('ws_b', ['*']);
    const rows = writeTx(db, () => bulkAll('ws_a', bodies.slice(0, 100)));
    const deliveries = db.prepare('SELECT event_id, count(*) AS n FROM webhook_deliveries GROUP BY event_id').all() as { event_id: string; n: number }[];
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(deliveries.every((d) => d.n === 2)).toBe(true);
    expect(stored()).toHaveLength(100);
    expect(() => log.bulk('ws_a', 'transaction.created')).toThrow(/inside the transaction/);
  });
});

describe('newId', () => {
  it('gives distinct prefixed 20-hex ids across many refills of its random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newId('evt'));
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{20}$/);
  });
});

describe('newSortableId', () => {
  afterEach(() => vi.useRealTimers());

  it('gives ids of the same form that strictly increase, within a millisecond and across them', () => {
    const ids: string[] = [];
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2100, 0, 1) });
    for (let ms = 0; ms < 50; ms++) {
      for (let i = 0; i < 100; i++) ids.push(newSortableId('evt'));
      vi.advanceTimersByTime(1);
    }
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{20}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(ids[0]!.slice(4, 15)).toBe(Date.UTC(2100, 0, 1).toString(16).padStart(11, '0'));
  });

  it('keeps increasing when the clock is set back', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2100, 0, 1, 12) });
    const before = newSortableId('evt');
    vi.setSystemTime(Date.UTC(2100, 0, 1, 11));
    const after = newSortableId('evt');
    expect(after > before).toBe(true);
  });
});
