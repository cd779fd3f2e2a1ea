/**
 * `txa prices fill` on the local engine (docs/prices.md): every row of the workspace
 * without a fiat value (fees included; spam rows left out) gets amount × the token's price of its
 * UTC day, converted to the workspace's base currency with its rates, source `price`. Values of
 * any source (`manual`, `import`, an earlier fill) are never touched. Rows are written in batches,
 * each in one write transaction with its `transaction.updated` events (old and new values).
 */
import { centsToNumber } from '../core/money.js';
import { dayOf } from '../core/dates.js';
import type { Engine } from '../engine/engine.js';
import { assertRowsOpen } from '../engine/periods.js';
import { hydrate } from '../engine/transactions.js';
import { updateValues } from '../store/insert-transactions.js';
import { selectByIds } from '../store/transactions.js';
import { unpricedRows, type UnpricedRow, type UnpricedScope } from '../store/price-fill.js';
import { rateReader } from '../store/rates.js';
import { changesOf } from '../engine/transaction-changes.js';
import type { PriceApi } from './apis.js';
import { coinKey } from './coins.js';
import { PriceLookup } from './lookup.js';
import { valueCents } from './value.js';

/** The `--json` data of a fill (docs/prices.md). */
export interface FillResult {
  priced: number;
  unpriced: number;
  requests: number;
  cached: number;
}

/** Rows left without a value for one reason, with the first of them as an example. */
export interface Unpriced {
  reason: string;
  rows: number;
  example: string;
}

/** The rows a fill values: a period, some wallets (`wallet sync --prices`). */
export type FillOptions = UnpricedScope;

/**
 * Rows per write transaction: each commit rewrites every page its rows touched (the rows are
 * spread over the table), so 1,000-row batches spent more on commits than on the updates; a
 * 10,000-row batch holds the write lock well under a second.
 */
const WRITE_BATCH = 10_000;

export async function fillPrices(
  engine: Engine,
  workspaceId: string,
  api: PriceApi,
  opts: FillOptions = {},
): Promise<{ result: FillResult; unpriced: Unpriced[] }> {
  const ws = engine.workspace(workspaceId);
  const rows = unpricedRows(engine.db, workspaceId, opts);
  // A fill writes in batches: rows of a closed period are refused before the first, and before
  // any request (docs/periods.md).
  assertRowsOpen(engine, workspaceId, rows, 'valued');
  const lookup = new PriceLookup(engine, api);
  const requestsBefore = api.http.requests;
  const keysOf = (r: UnpricedRow, day: string) => ({
    imported: [...(r.token_address ? [`${r.chain}:${r.token_address.toLowerCase()}`] : []), r.token_symbol.toUpperCase()],
    api: coinKey(r.chain, r.token_address, day, r.token_symbol),
  });
  for (const r of rows) {
    const day = dayOf(r.ts);
    const k = keysOf(r, day);
    if (r.amount !== '0') lookup.want(k.imported, k.api, day);
  }
  await lookup.fetchMissing();

  const rate = rateOf(engine, workspaceId, ws.base_currency);
  const values: { id: string; cents: number; price: Record<string, unknown> }[] = [];
  const reasons = new Map<string, Unpriced>();
  const skip = (r: UnpricedRow, reason: string, what: string) => {
    const seen = reasons.get(reason);
    if (seen) seen.rows++;
    else reasons.set(reason, { reason, rows: 1, example: `${r.id} (${what})` });
  };
  for (const r of rows) {
    const day = dayOf(r.ts);
    // A zero amount (an approval, a contract call) is worth nothing at any price.
    if (r.amount === '0') {
      values.push({ id: r.id, cents: 0, price: { day } });
      continue;
    }
    const k = keysOf(r, day);
    const found = lookup.find(k.imported, k.api, day);
    const what = `${k.api ?? r.token_symbol} on ${day}`;
    if ('none' in found) {
      skip(r, found.none, what);
      continue;
    }
    const { entry } = found;
    const fx = entry.currency === ws.base_currency ? '1' : rate(entry.currency, day);
    if (fx === undefined) {
      skip(r, `no ${ws.base_currency}→${entry.currency} rate (txa rates fill, or txa rates import)`, `${entry.currency} price on ${day}`);
      continue;
    }
    const cents = valueCents(r.amount, entry.price!, fx);
    if (cents === null) {
      skip(r, 'a value too large for a ledger row', what);
      continue;
    }
    values.push({ id: r.id, cents, price: { source: entry.source, token: entry.token, day, price: entry.price, currency: entry.currency } });
  }

  let priced = 0;
  for (let i = 0; i < values.length; i += WRITE_BATCH) priced += writeValues(engine, workspaceId, values.slice(i, i + WRITE_BATCH));
  const unpriced = [...reasons.values()];
  return {
    result: { priced, unpriced: unpriced.reduce((n, u) => n + u.rows, 0), requests: api.http.requests - requestsBefore, cached: lookup.cached },
    unpriced,
  };
}

/** The workspace's rate of `currency` on a day (1 base = rate units of it), remembered; undefined when missing. */
function rateOf(engine: Engine, workspaceId: string, base: string): (currency: string, day: string) => string | undefined {
  const memo = new Map<string, string | undefined>();
  const stored = rateReader(engine.db, workspaceId);
  return (currency, day) => {
    const id = `${currency}|${day}`;
    if (!memo.has(id)) memo.set(id, currency === base ? '1' : stored(currency, day));
    return memo.get(id);
  };
}

/**
 * Writes one batch in one transaction: the values in one pass (rollups summed per key), then one
 * `transaction.updated` per row, appended in bulk. A row that got a value since it was read (a
 * manual value set meanwhile) keeps it. Returns the rows written.
 */
function writeValues(engine: Engine, workspaceId: string, batch: { id: string; cents: number; price: Record<string, unknown> }[]): number {
  return engine.write(() => {
    const byId = new Map(batch.map((v) => [v.id, v]));
    const rows = selectByIds(
      engine.db,
      workspaceId,
      batch.map((v) => v.id),
    ).filter((r) => r.fiat_cents === null);
    const before = hydrate(engine, rows);
    updateValues(
      engine.db,
      rows.map((row) => ({ row, next: { fiat_cents: byId.get(row.id)!.cents, fiat_value_source: 'price', spam: row.spam } })),
    );
    const updated = engine.changes(workspaceId, 'transaction.updated');
    for (const [i, row] of rows.entries()) {
      const v = byId.get(row.id)!;
      const after = { ...before[i]!, fiat_value: centsToNumber(v.cents), fiat_value_source: 'price' as const };
      updated.add(row.id, { transaction: after, changes: changesOf(before[i]!, after), price: v.price });
    }
    updated.end();
    return rows.length;
  });
}
