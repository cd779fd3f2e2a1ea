/**
 * `txa rules apply` (CONTRACT §10, docs/rules.md): the rows of all rules are found in one SQL
 * pass, the edits of the rules matching a row are merged, and only rows whose tags, notes, spam flag or
 * transfer would change are written, so a second run changes nothing. The whole run is one write
 * transaction (a dry run rolls it back), with the usual events per changed row.
 *
 * Merging: in mode `first` a row belongs to the first rule that matches it; in mode `all` every
 * matching rule applies, tags add up, and for notes and spam the last rule wins. A rule is
 * credited with a row when a value it sets is one the row ends up with and did not have.
 */
import type { Engine } from '../engine/engine.js';
import { applyRowEdit } from '../engine/transaction-edits.js';
import { matchRowsByRule } from '../engine/transfers.js';
import { getTransaction } from '../engine/transactions.js';
import { listTags } from '../store/ledger.js';
import type { Transaction } from '../core/types.js';
import { compileRules, registerRuleFunctions, type CompiledRule, type RulePeriod } from './compile.js';
import type { RulesFile } from './file.js';

/** Sample rows kept per rule for a dry run's listing. */
export const SAMPLES = 3;

export interface RuleOutcome {
  name: string;
  matched: number;
  changed: number;
}

/** The `data` of `txa rules apply --json`; `samples` (per rule) is for the human listing only. */
export interface RulesResult {
  dry_run: boolean;
  rules: RuleOutcome[];
  changed: number;
}

export interface ApplyOptions {
  dryRun?: boolean;
  period?: RulePeriod;
  /** Only these rows (an import's or a sync's new rows); all of the workspace's otherwise. */
  onlyIds?: readonly string[];
}

/** A matched row's state before the run and the edits the rules want of it. */
interface Planned {
  id: string;
  spam: boolean;
  addTagIds: Set<string>;
  /** Rules adding a tag the row lacks, or asking for an own transfer. */
  tagRules: Set<number>;
  internalRules: Set<number>;
  /** The notes and spam flag the last rule setting them wants, kept only when they differ from the row's. */
  notesSet?: { value: string | null; rule: number };
  spamSet?: { value: boolean; rule: number };
}

class DryRunDone {
  constructor(readonly result: RulesResult & { samples: Transaction[][] }) {}
}

/** A row some rule matches: its state, the rules that apply to it (in order) and those of them whose tags it lacks. */
interface Hit {
  id: string;
  notes: string | null;
  spam: boolean;
  free: boolean;
  applying: CompiledRule[];
  lacking: Set<number>;
}

/**
 * Most rules one statement asks, and most variables it binds (docs/rules.md, Limits). SQLite
 * nests `a OR b OR …` one level per rule (mode all) and refuses more than 1000 levels; it takes
 * at most 32,766 variables; and preparing a CASE of n rules costs about n² (5,000 rules: 1.5 s).
 */
const RULES_PER_STATEMENT = 200;
const PARAMS_PER_STATEMENT = 10_000;

const paramsOf = (r: CompiledRule) => r.where.params.length + r.tagIds.length;

/** The rules in order, cut into the groups one statement asks each. */
function* statementGroups(rules: CompiledRule[]): Generator<CompiledRule[]> {
  let group: CompiledRule[] = [];
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
const lacksSql = (r: CompiledRule) =>
  `(q.tag_count = 0 OR (SELECT count(*) FROM transaction_tags x WHERE x.transaction_id = q.id AND x.tag_id IN (${r.tagIds.map(() => '?').join(', ')})) < ${r.tagIds.length})`;

/**
 * Every row some rule of `rules` (one statement's group) matches, in one pass over the
 * workspace's rows (or the scope's) whatever the number of rules (bench/RESULTS.md, "Rules"). Mode
 * first asks one CASE, which stops at the first rule that matches; mode all asks every rule of
 * the rows any rule matches. Rules are numbered by their place in the group.
 */
function* statementRows(engine: Engine, ws: string, rules: CompiledRule[], mode: RulesFile['mode'], scoped: boolean): Generator<Hit> {
  const tagged = rules.flatMap((r, i) => (r.tagIds.length > 0 ? [{ r, i }] : []));
  const matches =
    mode === 'first' ? [`CASE ${rules.map((r, i) => `WHEN ${r.where.sql} THEN ${i}`).join(' ')} END AS k`] : rules.map((r, i) => `(${r.where.sql}) AS m${i}`);
  const flags = mode === 'first' ? ['q.k'] : rules.map((_, i) => `q.m${i}`);
  const lacks =
    mode === 'first'
      ? [tagged.length ? `CASE q.k ${tagged.map(({ r, i }) => `WHEN ${i} THEN ${lacksSql(r)}`).join(' ')} ELSE 0 END` : '0']
      : tagged.map(({ r, i }) => `iif(q.m${i}, ${lacksSql(r)}, 0)`);
  // An import's rows are looked up from the scope, never by scanning the ledger.
  const from = scoped ? 'temp.rule_scope s CROSS JOIN transactions t ON t.id = s.id' : 'transactions t';
  const sql = `SELECT q.id, q.notes, q.spam, q.free, ${[...flags, ...lacks].join(', ')}
    FROM (SELECT t.id, t.notes, t.spam, t.transfer_id IS NULL AS free, t.tag_count, ${matches.join(', ')} FROM ${from} WHERE t.workspace_id = ?) q
    WHERE ${mode === 'first' ? 'q.k IS NOT NULL' : flags.join(' OR ')}`;
  const params = [...tagged.flatMap(({ r }) => r.tagIds), ...rules.flatMap((r) => r.where.params), ws];
  for (const r of engine.db
    .prepare(sql)
    .raw(true)
    .iterate(...params) as IterableIterator<unknown[]>) {
    const head = { id: r[0] as string, notes: r[1] as string | null, spam: r[2] === 1, free: r[3] === 1 };
    if (mode === 'first') {
      const rule = rules[r[4] as number]!;
      yield { ...head, applying: [rule], lacking: new Set(r[5] === 1 ? [rule.index] : []) };
    } else {
      yield {
        ...head,
        applying: rules.filter((_, i) => r[4 + i] === 1),
        lacking: new Set(tagged.filter((_, j) => r[4 + rules.length + j] === 1).map(({ r: rule }) => rule.index)),
      };
    }
  }
}

/**
 * Every row some rule matches. Rules beyond one statement's group take one pass per group, and
 * a row met by several is gathered (so held in memory) before it is handed on: in mode first
 * the rule of the earliest group claims it, in mode all the rules of every group apply, in order.
 */
function* matchedRows(engine: Engine, ws: string, rules: CompiledRule[], mode: RulesFile['mode'], scoped: boolean): Generator<Hit> {
  const groups = [...statementGroups(rules)];
  if (groups.length === 1) return yield* statementRows(engine, ws, rules, mode, scoped);
  const hits = new Map<string, Hit>();
  for (const group of groups) {
    for (const hit of statementRows(engine, ws, group, mode, scoped)) {
      const seen = hits.get(hit.id);
      if (!seen) hits.set(hit.id, hit);
      else if (mode === 'all') {
        seen.applying.push(...hit.applying);
        for (const index of hit.lacking) seen.lacking.add(index);
      }
    }
  }
  yield* hits.values();
}

/** Reads the rows the rules match and merges their edits per row; nothing is written yet (the read is lazy). */
function plan(engine: Engine, ws: string, rules: CompiledRule[], mode: RulesFile['mode'], scoped: boolean) {
  const planned: Planned[] = [];
  const matched = rules.map(() => 0);
  for (const hit of matchedRows(engine, ws, rules, mode, scoped)) {
    const p: Planned = { id: hit.id, spam: hit.spam, addTagIds: new Set(), tagRules: new Set(), internalRules: new Set() };
    for (const rule of hit.applying) {
      matched[rule.index]!++;
      if (hit.lacking.has(rule.index)) {
        for (const t of rule.tagIds) p.addTagIds.add(t);
        p.tagRules.add(rule.index);
      }
      // Later rules win notes and spam.
      if (rule.notes !== undefined) p.notesSet = { value: rule.notes, rule: rule.index };
      if (rule.spam !== undefined) p.spamSet = { value: rule.spam, rule: rule.index };
      if (rule.internal && hit.free) p.internalRules.add(rule.index);
    }
    if (p.notesSet?.value === hit.notes) delete p.notesSet;
    if (p.spamSet?.value === hit.spam) delete p.spamSet;
    if (p.tagRules.size > 0 || p.internalRules.size > 0 || p.notesSet || p.spamSet) planned.push(p);
  }
  return { planned, matched };
}

/** Writes the planned edits, then the own transfers; returns the rows each rule changed and every row changed. */
function write(engine: Engine, ws: string, rules: CompiledRule[], planned: Planned[]) {
  const byRule = rules.map(() => new Set<string>());
  const changed = new Set<string>();
  const toMatch = new Map<string, Set<number>>();
  for (const p of planned) {
    const { notesSet: notes, spamSet: spam } = p;
    const credited = new Set(p.tagRules);
    if (notes) credited.add(notes.rule);
    if (spam) credited.add(spam.rule);
    if (credited.size > 0) {
      applyRowEdit(engine, ws, p.id, { addTagIds: [...p.addTagIds], notes: notes?.value, spam: spam?.value });
      changed.add(p.id);
      for (const r of credited) byRule[r]!.add(p.id);
    }
    // Spam rows are never legs of own transfers.
    if (p.internalRules.size > 0 && !(spam ? spam.value : p.spam)) toMatch.set(p.id, p.internalRules);
  }
  if (toMatch.size > 0) {
    for (const id of matchRowsByRule(engine, ws, [...toMatch.keys()])) {
      changed.add(id);
      for (const r of toMatch.get(id) ?? []) byRule[r]!.add(id);
    }
  }
  return { byRule, changed };
}

/** The rows a run is limited to, in a temporary table the rules' queries join. */
function scopeTo(engine: Engine, ids: readonly string[]): void {
  engine.db.exec('CREATE TEMP TABLE IF NOT EXISTS rule_scope (id TEXT PRIMARY KEY); DELETE FROM temp.rule_scope');
  const insert = engine.db.prepare('INSERT OR IGNORE INTO temp.rule_scope (id) VALUES (?)');
  for (const id of ids) insert.run(id);
}

/** The rules compiled against the workspace: an unknown tag or wallet is INVALID_RULES at its path. */
export function checkRules(engine: Engine, ws: string, file: RulesFile, period: RulePeriod = {}): CompiledRule[] {
  const refs = {
    tags: listTags(engine.db, ws),
    walletIds: new Set(engine.db.prepare('SELECT id FROM wallets WHERE workspace_id = ?').pluck().all(ws) as string[]),
  };
  return compileRules(file, ws, refs, period);
}

/** The outcome of rules that met no row. */
export const noResult = (file: RulesFile, dryRun: boolean): RulesResult => ({
  dry_run: dryRun,
  rules: file.rules.map((r) => ({ name: r.name, matched: 0, changed: 0 })),
  changed: 0,
});

/**
 * Runs the rules inside the caller's write transaction (an import's, so its new rows are ruled
 * before it commits). Returns the outcome and, per rule, a few of the rows it changed.
 */
export function applyRulesWithin(
  engine: Engine,
  ws: string,
  file: RulesFile,
  opts: Omit<ApplyOptions, 'dryRun'> = {},
): RulesResult & { samples: Transaction[][] } {
  const rules = checkRules(engine, ws, file, opts.period);
  registerRuleFunctions(engine.db);
  const scoped = opts.onlyIds !== undefined;
  if (scoped) scopeTo(engine, opts.onlyIds!);
  const { planned, matched } = plan(engine, ws, rules, file.mode, scoped);
  const { byRule, changed } = write(engine, ws, rules, planned);
  return {
    dry_run: false,
    rules: rules.map((r) => ({ name: r.name, matched: matched[r.index]!, changed: byRule[r.index]!.size })),
    changed: changed.size,
    samples: byRule.map((ids) => [...ids].slice(0, SAMPLES).map((id) => getTransaction(engine, ws, id))),
  };
}

/** `txa rules apply`: one write transaction; a dry run makes the same changes and rolls them back, so its counts are exact. */
export function applyRules(engine: Engine, ws: string, file: RulesFile, opts: ApplyOptions = {}): RulesResult & { samples: Transaction[][] } {
  engine.workspace(ws);
  try {
    return engine.write(() => {
      const result = applyRulesWithin(engine, ws, file, opts);
      if (opts.dryRun) throw new DryRunDone({ ...result, dry_run: true });
      return result;
    });
  } catch (err) {
    if (err instanceof DryRunDone) return err.result;
    throw err;
  }
}

/** Two runs' outcomes as one (the batches of a sync): counts per rule and in all added up. */
export function addResults(a: RulesResult | undefined, b: RulesResult): RulesResult {
  if (!a) return b;
  return {
    dry_run: a.dry_run,
    rules: a.rules.map((r, i) => ({ name: r.name, matched: r.matched + b.rules[i]!.matched, changed: r.changed + b.rules[i]!.changed })),
    changed: a.changed + b.changed,
  };
}
