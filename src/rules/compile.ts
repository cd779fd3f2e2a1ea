/**
 * A checked rules file → what each rule matches (a list filter plus the keys a list filter does
 * not have: type, counterparty, method, notes), which store/rules.ts turns into SQL, and what it
 * sets. Tag names and wallet ids are resolved against the workspace here: an unknown one is
 * INVALID_RULES at its dotted path.
 */
import type { RuleMatch } from '../store/rules.js';
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
  match: RuleMatch;
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

/** The match of the rule's keys. */
function matchOf(rule: Rule, filter: TxFilter): RuleMatch {
  const m = rule.match;
  const match: RuleMatch = { filter };
  if (m.type) match.type = m.type;
  if (m.counterparty !== undefined) match.counterparty = list(m.counterparty);
  if (m.method !== undefined) match.method = list(m.method);
  if (m.notes_contains !== undefined) {
    const re = patternOf(m.notes_contains);
    match.notes = re === undefined ? { contains: m.notes_contains.toLowerCase() } : { regexp: re };
  }
  return match;
}

export function compileRules(file: RulesFile, refs: WorkspaceRefs, period: RulePeriod): CompiledRule[] {
  return file.rules.map((rule, index) => {
    const path = `rules.${index}`;
    const s = rule.set;
    return {
      index,
      name: rule.name,
      match: matchOf(rule, filterOf(rule, `${path}.match`, refs, period)),
      tagIds: s.tags === undefined ? [] : [...new Set(tagIdsAt(refs, s.tags, `${path}.set.tags`))],
      // Empty notes clear them, as `tx update --notes ''` does.
      ...(s.notes !== undefined && { notes: s.notes.trim() === '' ? null : s.notes }),
      ...(s.spam !== undefined && { spam: s.spam }),
      internal: s.internal === true,
    };
  });
}
