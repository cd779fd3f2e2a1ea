/**
 * A checked rules file → one SQL condition per rule over the transactions table (alias `t`),
 * built from the store's filter clauses (whereOf) plus the keys a list filter does not have
 * (type, counterparty, notes). Tag names and wallet ids are resolved against the workspace here:
 * an unknown one is INVALID_RULES at its dotted path.
 */
import { RE2JS } from 're2js';
import type { Db } from '../store/db.js';
import { whereOf, type Where } from '../store/transactions.js';
import { TxaError } from '../core/errors.js';
import { parseAmountBound, type TxFilter } from '../core/filters.js';
import { DAY_SECONDS, requireDay } from '../core/dates.js';
import { resolveTagRefs } from '../core/tag-refs.js';
import { patternOf, RULES_FORMAT_HINT, type Rule, type RulesFile } from './file.js';

/** Unix seconds, start inclusive, end exclusive (`--period`). */
export interface RulePeriod {
  startTs?: number;
  endTs?: number;
}

export interface CompiledRule {
  index: number;
  name: string;
  where: Where;
  /** What the rule sets: tag ids to add, notes (null clears), spam, own transfer. */
  tagIds: string[];
  notes?: string | null;
  spam?: boolean;
  internal: boolean;
}

export interface WorkspaceRefs {
  tags: readonly { id: string; name: string }[];
  walletIds: ReadonlySet<string>;
}

const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Runs a check written for request parameters (named `param`) and reports its failure at the rule's path. */
function at<T>(field: string, param: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof TxaError)) throw err;
    const message = err.message.startsWith(`${param} `) ? `${field}${err.message.slice(param.length)}` : `${field}: ${err.message}`;
    throw new TxaError('INVALID_RULES', message, { field, hint: err.hint ?? RULES_FORMAT_HINT });
  }
}

/** Tag names (or ids) → ids of the workspace's tags; a name no tag has is an error, never a new tag. */
function tagIdsAt(refs: WorkspaceRefs, names: string | string[], field: string): string[] {
  return list(names).map((name, i) => {
    const path = Array.isArray(names) ? `${field}.${i}` : field;
    const id = at(path, '', () => resolveTagRefs(refs.tags, [name], path)[0]!);
    if (!refs.tags.some((t) => t.id === id)) {
      throw new TxaError('INVALID_RULES', `${path}: no tag named '${name}' in this workspace`, {
        field: path,
        hint: `Create it first (txa tags create --name "${name}" --type …), or list tags with: txa tags list`,
      });
    }
    return id;
  });
}

function filterOf(rule: Rule, path: string, refs: WorkspaceRefs, period: RulePeriod): TxFilter {
  const m = rule.match;
  const f: TxFilter = { spam: 'include' };
  if (m.wallet_id !== undefined) {
    f.walletIds = list(m.wallet_id);
    f.walletIds.forEach((id, i) => {
      if (!refs.walletIds.has(id)) {
        const field = Array.isArray(m.wallet_id) ? `${path}.wallet_id.${i}` : `${path}.wallet_id`;
        throw new TxaError('INVALID_RULES', `${field}: no wallet ${id} in this workspace`, { field, hint: 'List wallets with: txa wallet list' });
      }
    });
  }
  if (m.chain) f.chain = m.chain;
  if (m.token) f.token = m.token;
  if (m.direction) f.direction = m.direction;
  if (m.min_amount !== undefined) f.minAmountKey = at(`${path}.min_amount`, 'min_amount', () => parseAmountBound(m.min_amount!, 'min_amount', 'INVALID_FIELD'));
  if (m.max_amount !== undefined) f.maxAmountKey = at(`${path}.max_amount`, 'max_amount', () => parseAmountBound(m.max_amount!, 'max_amount', 'INVALID_FIELD'));
  const start = m.start_date === undefined ? undefined : at(`${path}.start_date`, 'start_date', () => requireDay(m.start_date!, 'start_date', 'INVALID_FIELD'));
  const end =
    m.end_date === undefined ? undefined : at(`${path}.end_date`, 'end_date', () => requireDay(m.end_date!, 'end_date', 'INVALID_FIELD')) + DAY_SECONDS;
  if (start !== undefined && end !== undefined && end - DAY_SECONDS < start) {
    throw new TxaError('INVALID_RULES', `${path}.end_date must not be before start_date`, { field: `${path}.end_date`, hint: RULES_FORMAT_HINT });
  }
  // The rule's dates and --period both hold: the later start, the earlier end.
  const starts = [start, period.startTs].filter((v) => v !== undefined);
  const ends = [end, period.endTs].filter((v) => v !== undefined);
  if (starts.length) f.startTs = Math.max(...starts);
  if (ends.length) f.endTs = Math.min(...ends);
  if (typeof m.has_tags === 'boolean') f.hasTags = m.has_tags;
  else if (m.has_tags) f.tagIds = tagIdsAt(refs, m.has_tags, `${path}.has_tags`);
  return f;
}

/** Longest list bound value by value; a longer one is bound as one JSON array. */
const INLINE_VALUES = 100;

/**
 * `expr IN (the values, lowercased)`. A short list binds each value, which SQLite compares
 * fastest (a JSON array read with json_each costs twice as much per row); a long one binds a
 * single JSON array, since a list of 35,000 addresses would be more variables than a statement
 * may have (docs/rules.md, Limits).
 */
function inList(expr: string, values: string | string[]): Where {
  const distinct = [...new Set(list(values).map((v) => v.toLowerCase()))];
  return distinct.length <= INLINE_VALUES
    ? { sql: `${expr} IN (${distinct.map(() => '?').join(', ')})`, params: distinct }
    : { sql: `${expr} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(distinct)] };
}

/** The keys whereOf has no clause for. */
function extraClauses(rule: Rule): Where {
  const m = rule.match;
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    clauses.push(sql);
    params.push(...values);
  };
  if (m.type) add('t.type = ?', m.type);
  if (m.counterparty !== undefined) {
    const w = inList(`lower(CASE t.direction WHEN 'inflow' THEN t.from_address ELSE t.to_address END)`, m.counterparty);
    add(w.sql, ...w.params);
  }
  if (m.method !== undefined) {
    // Explorers spell a method in ASCII (`Swap Exact ETH For Tokens`, `0x7ff36ab5`): lower() folds it.
    const w = inList('lower(t.method)', m.method);
    add(w.sql, ...w.params);
  }
  if (m.notes_contains !== undefined) {
    const re = patternOf(m.notes_contains);
    if (re === undefined) add('t.notes IS NOT NULL AND txa_notes_contains(t.notes, ?)', m.notes_contains.toLowerCase());
    else add('t.notes IS NOT NULL AND txa_notes_regexp(t.notes, ?)', re);
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * The SQL functions the notes clauses call: JavaScript's case folding (SQLite's lower() folds
 * ASCII only) and regular expressions in RE2's linear time (patternOf).
 */
export function registerRuleFunctions(db: Db): void {
  const patterns = new Map<string, RE2JS>();
  db.function('txa_notes_contains', { deterministic: true }, (notes: unknown, needle: unknown) => Number(String(notes).toLowerCase().includes(String(needle))));
  db.function('txa_notes_regexp', { deterministic: true }, (notes: unknown, source: unknown) => {
    let re = patterns.get(String(source));
    if (!re) patterns.set(String(source), (re = RE2JS.compile(String(source))));
    return Number(re.test(String(notes)));
  });
}

export function compileRules(file: RulesFile, workspaceId: string, refs: WorkspaceRefs, period: RulePeriod): CompiledRule[] {
  return file.rules.map((rule, index) => {
    const path = `rules.${index}`;
    const base = whereOf(workspaceId, filterOf(rule, `${path}.match`, refs, period));
    const extra = extraClauses(rule);
    const s = rule.set;
    return {
      index,
      name: rule.name,
      where: extra.sql ? { sql: `${base.sql} AND ${extra.sql}`, params: [...base.params, ...extra.params] } : base,
      tagIds: s.tags === undefined ? [] : [...new Set(tagIdsAt(refs, s.tags, `${path}.set.tags`))],
      // Empty notes clear them, as `tx update --notes ''` does.
      ...(s.notes !== undefined && { notes: s.notes.trim() === '' ? null : s.notes }),
      ...(s.spam !== undefined && { spam: s.spam }),
      internal: s.internal === true,
    };
  });
}
