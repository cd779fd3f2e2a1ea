/**
 * Rule matching in SQL (docs/rules.md): a rule's match, a list filter (whereOf) plus the keys a
 * list filter does not have (type, counterparty, method, notes), becomes one condition over the
 * transactions table (alias `t`), and the rows all rules match are found in one pass per group of
 * rules (rules/apply.ts merges their edits).
 */
import { RE2JS } from 're2js';
import type { Db } from './db.js';
import { whereOf, type Where } from './transactions.js';
import type { TxFilter } from '../core/filters.js';

/** What a rule matches: rows of `filter` that also have these (values of a list are alternatives). */
export interface RuleMatch {
  filter: TxFilter;
  type?: string;
  /** The other side's address (the sender of an inflow, the recipient of an outflow), any case. */
  counterparty?: string[];
  method?: string[];
  /** Notes that contain `contains` (already lowercased), or match the RE2 pattern `regexp`. */
  notes?: { contains: string } | { regexp: string };
}

/** A rule as matching sees it: its match and the tags it adds (a row lacking one of them is told apart). */
export interface RuleQuery {
  match: RuleMatch;
  tagIds: readonly string[];
}

/** A row some rules match: its state, the rules that apply to it (in order) and the positions (in the rules given) of those whose tags it lacks. */
export interface RuleHit<R> {
  id: string;
  notes: string | null;
  spam: boolean;
  /** Not a leg of an own transfer. */
  free: boolean;
  applying: R[];
  lacking: Set<number>;
}

/** Mode first: a row belongs to the first rule that matches it; mode all: to every rule that does. */
export type RuleMode = 'first' | 'all';

/** Longest list bound value by value; a longer one is bound as one JSON array. */
const INLINE_VALUES = 100;

/**
 * `expr IN (the values, lowercased)`. A short list binds each value, which SQLite compares
 * fastest (a JSON array read with json_each costs twice as much per row); a long one binds a
 * single JSON array, since a list of 35,000 addresses would be more variables than a statement
 * may have (docs/rules.md, Limits).
 */
function inList(expr: string, values: readonly string[]): Where {
  const distinct = [...new Set(values.map((v) => v.toLowerCase()))];
  return distinct.length <= INLINE_VALUES
    ? { sql: `${expr} IN (${distinct.map(() => '?').join(', ')})`, params: distinct }
    : { sql: `${expr} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(distinct)] };
}

/** The rule's condition over `t`. */
function ruleWhere(workspaceId: string, m: RuleMatch): Where {
  const base = whereOf(workspaceId, m.filter);
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (w: Where) => {
    clauses.push(w.sql);
    params.push(...w.params);
  };
  if (m.type) add({ sql: 't.type = ?', params: [m.type] });
  if (m.counterparty !== undefined) add(inList(`lower(CASE t.direction WHEN 'inflow' THEN t.from_address ELSE t.to_address END)`, m.counterparty));
  // Explorers spell a method in ASCII (`Swap Exact ETH For Tokens`, `0x7ff36ab5`): lower() folds it.
  if (m.method !== undefined) add(inList('lower(t.method)', m.method));
  if (m.notes && 'contains' in m.notes) add({ sql: 't.notes IS NOT NULL AND txa_notes_contains(t.notes, ?)', params: [m.notes.contains] });
  else if (m.notes) add({ sql: 't.notes IS NOT NULL AND txa_notes_regexp(t.notes, ?)', params: [m.notes.regexp] });
  return clauses.length ? { sql: `${base.sql} AND ${clauses.join(' AND ')}`, params: [...base.params, ...params] } : base;
}

/**
 * The SQL functions the notes clauses call: JavaScript's case folding (SQLite's lower() folds
 * ASCII only) and regular expressions in RE2's linear time (rules/file.ts patternOf).
 */
function registerRuleFunctions(db: Db): void {
  const patterns = new Map<string, RE2JS>();
  db.function('txa_notes_contains', { deterministic: true }, (notes: unknown, needle: unknown) => Number(String(notes).toLowerCase().includes(String(needle))));
  db.function('txa_notes_regexp', { deterministic: true }, (notes: unknown, source: unknown) => {
    let re = patterns.get(String(source));
    if (!re) patterns.set(String(source), (re = RE2JS.compile(String(source))));
    return Number(re.test(String(notes)));
  });
}

/** A rule with its condition and its place among the rules given. */
interface Compiled<R> {
  rule: R;
  at: number;
  where: Where;
}

/**
 * Most rules one statement asks, and most variables it binds (docs/rules.md, Limits). SQLite
 * nests `a OR b OR …` one level per rule (mode all) and refuses more than 1000 levels; it takes
 * at most 32,766 variables; and preparing a CASE of n rules costs about n² (5,000 rules: 1.5 s).
 */
const RULES_PER_STATEMENT = 200;
const PARAMS_PER_STATEMENT = 10_000;

const paramsOf = (c: Compiled<RuleQuery>) => c.where.params.length + c.rule.tagIds.length;

/** The rules in order, cut into the groups one statement asks each. */
function* statementGroups<R extends RuleQuery>(rules: Compiled<R>[]): Generator<Compiled<R>[]> {
  let group: Compiled<R>[] = [];
  let params = 0;
  for (const rule of rules) {
    if (group.length > 0 && (group.length === RULES_PER_STATEMENT || params + paramsOf(rule) > PARAMS_PER_STATEMENT)) {
      yield group;
      group = [];
      params = 0;
    }
    group.push(rule);
    params += paramsOf(rule);
  }
  yield group;
}

/** Whether the row (`q`) lacks one of the rule's tags: an untagged row needs no lookup. */
const lacksSql = (r: RuleQuery) =>
  `(q.tag_count = 0 OR (SELECT count(*) FROM transaction_tags x WHERE x.transaction_id = q.id AND x.tag_id IN (${r.tagIds.map(() => '?').join(', ')})) < ${r.tagIds.length})`;

/**
 * Every row some rule of `rules` (one statement's group) matches, in one pass over the
 * workspace's rows (or the scope's) whatever the number of rules (bench/RESULTS.md, "Rules"). Mode
 * first asks one CASE, which stops at the first rule that matches; mode all asks every rule of
 * the rows any rule matches. Rules are numbered by their place in the group.
 */
function* statementRows<R extends RuleQuery>(db: Db, ws: string, rules: Compiled<R>[], mode: RuleMode, scoped: boolean): Generator<RuleHit<R>> {
  const tagged = rules.flatMap((c, i) => (c.rule.tagIds.length > 0 ? [{ c, i }] : []));
  const matches =
    mode === 'first' ? [`CASE ${rules.map((c, i) => `WHEN ${c.where.sql} THEN ${i}`).join(' ')} END AS k`] : rules.map((c, i) => `(${c.where.sql}) AS m${i}`);
  const flags = mode === 'first' ? ['q.k'] : rules.map((_, i) => `q.m${i}`);
  const lacks =
    mode === 'first'
      ? [tagged.length ? `CASE q.k ${tagged.map(({ c, i }) => `WHEN ${i} THEN ${lacksSql(c.rule)}`).join(' ')} ELSE 0 END` : '0']
      : tagged.map(({ c, i }) => `iif(q.m${i}, ${lacksSql(c.rule)}, 0)`);
  // An import's rows are looked up from the scope, never by scanning the ledger.
  const from = scoped ? 'temp.rule_scope s CROSS JOIN transactions t ON t.id = s.id' : 'transactions t';
  const sql = `SELECT q.id, q.notes, q.spam, q.free, ${[...flags, ...lacks].join(', ')}
    FROM (SELECT t.id, t.notes, t.spam, t.transfer_id IS NULL AS free, t.tag_count, ${matches.join(', ')} FROM ${from} WHERE t.workspace_id = ?) q
    WHERE ${mode === 'first' ? 'q.k IS NOT NULL' : flags.join(' OR ')}`;
  const params = [...tagged.flatMap(({ c }) => c.rule.tagIds), ...rules.flatMap((c) => c.where.params), ws];
  const plain = rules.map((c) => c.rule);
  for (const r of db
    .prepare(sql)
    .raw(true)
    .iterate(...params) as IterableIterator<unknown[]>) {
    const head = { id: r[0] as string, notes: r[1] as string | null, spam: r[2] === 1, free: r[3] === 1 };
    if (mode === 'first') {
      const c = rules[r[4] as number]!;
      yield { ...head, applying: [c.rule], lacking: new Set(r[5] === 1 ? [c.at] : []) };
    } else {
      yield {
        ...head,
        applying: plain.filter((_, i) => r[4 + i] === 1),
        lacking: new Set(tagged.filter((_, j) => r[4 + rules.length + j] === 1).map(({ c }) => c.at)),
      };
    }
  }
}

/** The rows a run is limited to, in a temporary table the rules' queries join. */
function scopeTo(db: Db, ids: readonly string[]): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS rule_scope (id TEXT PRIMARY KEY); DELETE FROM temp.rule_scope');
  const insert = db.prepare('INSERT OR IGNORE INTO temp.rule_scope (id) VALUES (?)');
  for (const id of ids) insert.run(id);
}

/**
 * Every row of the workspace (or only of `onlyIds`) some rule matches, lazily. Rules beyond one
 * statement's group take one pass per group, and a row met by several is gathered (so held in
 * memory) before it is handed on: in mode first the rule of the earliest group claims it, in mode
 * all the rules of every group apply, in order.
 */
export function* ruleHits<R extends RuleQuery>(db: Db, ws: string, rules: readonly R[], mode: RuleMode, onlyIds?: readonly string[]): Generator<RuleHit<R>> {
  registerRuleFunctions(db);
  const scoped = onlyIds !== undefined;
  if (scoped) scopeTo(db, onlyIds);
  const compiled = rules.map((rule, at) => ({ rule, at, where: ruleWhere(ws, rule.match) }));
  const groups = [...statementGroups(compiled)];
  if (groups.length === 1) return yield* statementRows(db, ws, compiled, mode, scoped);
  const hits = new Map<string, RuleHit<R>>();
  for (const group of groups) {
    for (const hit of statementRows(db, ws, group, mode, scoped)) {
      const seen = hits.get(hit.id);
      if (!seen) hits.set(hit.id, hit);
      else if (mode === 'all') {
        seen.applying.push(...hit.applying);
        for (const at of hit.lacking) seen.lacking.add(at);
      }
    }
  }
  yield* hits.values();
}
