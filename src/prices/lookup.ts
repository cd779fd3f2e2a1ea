/**
 * A token's price on a day, in the order of docs/prices.md: an imported price for its
 * `chain:address`, then for its symbol, then the API source's cache entry, and only then the API.
 * Each token-day is looked up once per run; what the API answers goes into the cache one batch at
 * a time (one write transaction each), "no price" included, so a second run asks nothing.
 */
import { dayOf } from '../core/dates.js';
import { nowIso, nowSeconds } from '../core/clock.js';
import type { Engine } from '../engine/engine.js';
import { getPrice, putPrices, type PriceEntry } from '../store/prices.js';
import type { PriceApi, TokenDay } from './apis.js';
import { soundEntry } from './points.js';

/** A price found, or why there is none. */
export type Found = { entry: PriceEntry } | { none: string };

export class PriceLookup {
  /** Token-days answered from the cache (imports included) without a request. */
  cached = 0;
  private readonly known = new Map<string, Found>();
  /** API token-days the cache lacks, asked for in `fetchMissing`. */
  private readonly missing = new Map<string, TokenDay>();

  constructor(
    private readonly engine: Engine,
    private readonly api: PriceApi,
  ) {}

  /**
   * Notes what the cache has for a row's token-day. `imported` are the row's import keys (its
   * `chain:address`, its symbol), `apiKey` its coin in the API's terms (null: none).
   */
  want(imported: string[], apiKey: string | null, day: string): void {
    if (this.importedKey(imported, day) !== undefined) return;
    if (apiKey === null) return;
    const id = `${apiKey}|${day}`;
    if (this.known.has(id) || this.missing.has(id)) return;
    const entry = getPrice(this.engine.db, this.api.source, apiKey, day);
    // An entry an older txa cached from a bad point is asked for again, and replaced (docs/prices.md, "Bad answers").
    if (entry && soundEntry(entry)) {
      this.cached++;
      this.known.set(id, entry.price === null ? { none: `no price from ${this.api.http.name}` } : { entry });
    } else this.missing.set(id, { key: apiKey, day });
  }

  /** Asks the API for every token-day the cache lacks, caching each batch as it comes. */
  async fetchMissing(): Promise<void> {
    const today = dayOf(nowSeconds());
    const wanted = [...this.missing.values()];
    this.missing.clear();
    for await (const batch of this.api.fetch(wanted)) {
      const fetchedAt = nowIso();
      const entries: PriceEntry[] = [];
      for (const f of batch) {
        const entry: PriceEntry = {
          source: this.api.source,
          token: f.key,
          day: f.day,
          price: f.price,
          currency: 'USD',
          price_ts: f.price_ts,
          fetched_at: fetchedAt,
        };
        this.known.set(`${f.key}|${f.day}`, f.failure ? { none: f.failure } : f.price === null ? { none: `no price from ${this.api.http.name}` } : { entry });
        // A day not over yet may still get its price; a failure may pass with another plan.
        if (!f.failure && (f.price !== null || f.day < today)) entries.push(entry);
      }
      if (entries.length) this.engine.write(() => putPrices(this.engine.db, entries));
    }
  }

  /** The price for a row after `fetchMissing`. */
  find(imported: string[], apiKey: string | null, day: string): Found {
    const key = this.importedKey(imported, day);
    if (key !== undefined) return this.known.get(`import:${key}|${day}`)!;
    if (apiKey === null) return { none: 'a chain without a price source' };
    return this.known.get(`${apiKey}|${day}`) ?? { none: `not asked of ${this.api.http.name}` };
  }

  /** The first import key with an imported price that day, remembered. */
  private importedKey(keys: string[], day: string): string | undefined {
    for (const key of keys) {
      const id = `import:${key}|${day}`;
      let found = this.known.get(id);
      if (found === undefined) {
        const entry = getPrice(this.engine.db, 'import', key, day);
        if (entry?.price) this.cached++;
        found = entry?.price ? { entry } : { none: 'not imported' };
        this.known.set(id, found);
      }
      if ('entry' in found) return key;
    }
    return undefined;
  }
}
