/**
 * The tags of a workspace's transactions, read tag by tag from the tag links before an export, so
 * the export's SQL (csv-rows.ts, json-rows.ts) gets each row's tag text from a function looked up
 * by rowid instead of running a correlated subquery per tagged row: on the realistic 1M ledger
 * (71 % of rows tagged) ≈ 0.8 s of CPU for the scan and ≈ 0.7 s for the calls, against ≈ 5 s for
 * the subqueries (bench/RESULTS.md, session 6).
 * A ledger has few distinct tag sets: each rowid maps to a set number, each set number to its
 * text. The set numbers live in shared memory, so the export's second reader (the file worker)
 * uses the same table without a copy.
 */
import type { Db } from './db.js';
import type { TagRef } from '../core/types.js';
import { compareTagRefs } from './transactions.js';

/** The SQL function that gives a rowid's tag text; defined on a connection by useTagSets. */
export const TAG_TEXT_FN = 'txa_tag_text';

export interface TagSets {
  /** Set number of each rowid (0: no tags), over a SharedArrayBuffer. */
  sets: Uint16Array;
  /** Text of each set number, as the writer prints that set of tags. */
  texts: string[];
}

/** Set numbers fit a Uint16Array; rowids above 2^23 would take more than 16 MB (then the subqueries run instead). */
const MAX_SETS = 0xffff;
const MAX_ROWID = 2 ** 23;

/** SQL: the link `x` is to a tag of the workspace bound here (a link joins a row and a tag of one workspace). */
const OF_WORKSPACE = 'x.tag_id IN (SELECT id FROM tags WHERE workspace_id = ?)';

/**
 * The tag sets of every transaction of the workspace, each set's text made by `text` from its
 * tags in compareTagRefs order; null when the per-row lookups are the cheaper way: the export
 * reads fewer than half as many rows as the workspace has tag links (counted only that far), or
 * the ledger's rowids or tag sets do not fit the tables.
 */
export function readTagSets(db: Db, workspaceId: string, rows: number, text: (tags: TagRef[]) => string): TagSets | null {
  const links = db
    .prepare(`SELECT count(*) FROM (SELECT 1 FROM transaction_tags x WHERE ${OF_WORKSPACE} LIMIT ?)`)
    .pluck()
    .get(workspaceId, 2 * rows + 1) as number;
  const maxRowid = (db.prepare('SELECT max(rowid) FROM transactions').pluck().get() as number | null) ?? 0;
  if (links > 2 * rows || maxRowid >= MAX_ROWID) return null;
  const tags = db.prepare('SELECT id, name, color FROM tags WHERE workspace_id = ?').all(workspaceId) as TagRef[];
  const sets = new Uint16Array(new SharedArrayBuffer(2 * (maxRowid + 1)));
  // Tag by tag, each row's set grows by one tag: (set, tag) → the set with that tag added.
  const next = new Map<number, number>();
  const members: TagRef[][] = [[]];
  // The rowids of one tag's links, from the tag index and the id index alone (both covering);
  // all() at once is ≈ 2× cheaper than stepping row by row.
  const rowidsOf = db.prepare('SELECT t.rowid FROM transaction_tags x JOIN transactions t ON t.id = x.transaction_id WHERE x.tag_id = ?').pluck();
  for (const [i, tag] of tags.entries()) {
    for (const rowid of rowidsOf.all(tag.id) as number[]) {
      const from = sets[rowid]!;
      const key = from * tags.length + i;
      let to = next.get(key);
      if (to === undefined) {
        if (members.length > MAX_SETS) return null;
        to = members.length;
        next.set(key, to);
        members.push([...members[from]!, tag]);
      }
      sets[rowid] = to;
    }
  }
  return { sets, texts: members.map((set) => text(set.sort(compareTagRefs))) };
}

/** Defines TAG_TEXT_FN on `db` for these sets (a connection holds one definition: the last). */
export function useTagSets(db: Db, tagSets: TagSets): void {
  const { sets, texts } = tagSets;
  db.function(TAG_TEXT_FN, { deterministic: true, directOnly: true }, (rowid) => texts[sets[rowid as number] ?? 0]!);
}
