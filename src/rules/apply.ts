/**
 * `txa rules apply` (docs/rules.md): the rows of all rules are found in one SQL
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
import { ruleHits } from '../store/rules.js';
import { workspaceWalletIds } from '../store/workspace-wallets.js';
import type { Transaction } from '../core/types.js';
import { compileRules, type CompiledRule, type RulePeriod } from './compile.js';
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

/**
 * Reads the rows the rules match (store/rules.ts, `lacking` by place in `rules`, which is each
 * rule's index) and merges their edits per row; nothing is written yet (the read is lazy).
 */
function plan(engine: Engine, ws: string, rules: CompiledRule[], mode: RulesFile['mode'], onlyIds: readonly string[] | undefined) {
  const planned: Planned[] = [];
  const matched = rules.map(() => 0);
  for (const hit of ruleHits(engine.db, ws, rules, mode, onlyIds)) {
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

/** The rules compiled against the workspace: an unknown tag or wallet is INVALID_RULES at its path. */
export function checkRules(engine: Engine, ws: string, file: RulesFile, period: RulePeriod = {}): CompiledRule[] {
  const refs = {
    tags: listTags(engine.db, ws),
    walletIds: new Set(workspaceWalletIds(engine.db, ws)),
  };
  return compileRules(file, refs, period);
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
  const { planned, matched } = plan(engine, ws, rules, file.mode, opts.onlyIds);
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
