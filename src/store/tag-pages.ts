/**
 * How a page of a tag filter reads its rows (TagAccess in transactions.ts), chosen from exact
 * counts the rollups give for free. Walking the rows in the page's order and probing each one's
 * links visits about need × scope / matching rows before it has `need` of them (a common tag: a
 * few hundred of the 1M-row ledger's rows); driving from the links looks up every matching row
 * once and sorts them (a rare tag: a few hundred). So: drive when matching² < need × scope.
 */
import type { Db } from './db.js';
import { rollupCanAnswer, type TxFilter } from '../core/filters.js';
import type { TagAccess } from './transactions.js';
import { totals } from './rollups.js';

/** `matching`: the filter's row count; `need`: the rows up to the page's end (offset + limit). */
export function tagAccessOfPage(db: Db, workspaceId: string, f: TxFilter, matching: number, need: number): TagAccess {
  if (f.tagIds === undefined) return 'walk';
  const { tagIds: _, hasTags: __, ...scope } = f;
  // Without rollups for the scope, counting it would cost a scan: drive, whose cost the tags bound.
  if (!rollupCanAnswer(scope) || f.spam === 'only') return 'drive';
  return matching * matching < need * totals(db, workspaceId, scope).count ? 'drive' : 'walk';
}
