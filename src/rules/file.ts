/**
 * A rules file (docs/rules.md): YAML or JSON text → a checked RulesFile. Every
 * problem is INVALID_RULES with `field` the dotted path of the offending value
 * (`rules.2.match.chain`), so nothing runs on a file with a mistake in it. Names of tags and
 * wallets are checked against the workspace later (compile.ts).
 */
import { parseDocument, visit, type Document } from 'yaml';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { TxaError } from '../core/errors.js';
import { readImportFile, type Refusal } from '../importers/read-file.js';
import { CHAINS, DIRECTIONS, TX_TYPES } from '../core/types.js';
import { NOTES_MAX } from '../core/schemas.js';

export const RULE_MODES = ['first', 'all'] as const;
export const MATCH_KEYS = [
  'wallet_id',
  'chain',
  'token',
  'direction',
  'type',
  'counterparty',
  'method',
  'min_amount',
  'max_amount',
  'start_date',
  'end_date',
  'has_tags',
  'notes_contains',
] as const;
export const SET_KEYS = ['tags', 'notes', 'internal', 'spam'] as const;

/**
 * Largest rules file read (docs/rules.md, Limits): 20,000 generated one-line rules take 2.1 MiB
 * (parsed in ~4 s, ~300 MB), a list of 35,000 addresses 1.7 MiB. Read in chunks, so
 * `/dev/zero` is refused after this much at most.
 */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/**
 * Most values the file may hold once its aliases (`*name`) are expanded: as many as a file of
 * MAX_FILE_BYTES could hold written out (`[0,0,…]`). A list reused by every rule stays far
 * below it; a "billion laughs" file is refused before anything walks its expansion.
 */
export const MAX_EXPANDED_VALUES = MAX_FILE_BYTES / 2;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** `notes_contains: /pattern/flags` is a regular expression; any other text a plain substring. */
const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;

const text = z.string().trim().min(1, { message: 'must not be empty' });
/** One value or a list of them (at least one). */
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1, { message: 'must list at least one value' })]);

const matchSchema = z
  .strictObject({
    wallet_id: oneOrMany(text),
    chain: z.enum(CHAINS),
    token: text,
    direction: z.enum(DIRECTIONS),
    type: z.enum(TX_TYPES),
    counterparty: oneOrMany(z.string().regex(ADDRESS, { message: 'must be a 0x address of 40 hex digits' })),
    method: oneOrMany(text),
    min_amount: z.string(),
    max_amount: z.string(),
    start_date: z.string(),
    end_date: z.string(),
    has_tags: z.union([z.boolean(), z.array(text).min(1, { message: 'must list at least one tag' })]),
    notes_contains: z
      .string()
      .min(1, { message: 'must not be empty' })
      .superRefine((value, ctx) => {
        const problem = patternProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  })
  .partial();

const setSchema = z
  .strictObject({
    tags: oneOrMany(text),
    notes: z.string().max(NOTES_MAX, { message: `must be at most ${NOTES_MAX} characters` }),
    internal: z.literal(true, { message: 'takes true only (to end a transfer: txa transfers unmatch ID)' }),
    spam: z.boolean(),
  })
  .partial()
  .refine((s) => Object.keys(s).length > 0, { message: `must set at least one of ${SET_KEYS.join(', ')}` });

const ruleSchema = z.strictObject({ name: text, match: matchSchema.default({}), set: setSchema });

const fileSchema = z.strictObject({
  mode: z.enum(RULE_MODES).default('first'),
  rules: z.array(ruleSchema).min(1, { message: 'must hold at least one rule' }),
});

export type RulesFile = z.output<typeof fileSchema>;
export type Rule = RulesFile['rules'][number];
export type RuleMatch = Rule['match'];
export type RuleSet = Rule['set'];

/**
 * A `/pattern/flags` value as the pattern of a linear-time engine (RE2, flags written inline), or
 * undefined for a plain substring. JavaScript's own engine backtracks and can take minutes on one
 * note (`/(a+)+$/`); RE2 takes time in proportion to the note (docs/rules.md, Regular expressions).
 * Throws for a pattern JavaScript does not accept.
 */
export function patternOf(value: string): string | undefined {
  const m = REGEX_FORM.exec(value);
  return m ? RE2JS.translateRegExp(new RegExp(m[1]!, m[2])) : undefined;
}

/** Why a `notes_contains` value cannot be matched, if it cannot. */
function patternProblem(value: string): string | undefined {
  let source: string | undefined;
  try {
    source = patternOf(value);
  } catch {
    return 'is not a valid regular expression';
  }
  try {
    if (source !== undefined) RE2JS.compile(source);
    return undefined;
  } catch (err) {
    return `uses what a linear-time regular expression cannot (backreferences, lookahead, lookbehind): ${(err as Error).message}`;
  }
}

/** The next step every INVALID_RULES error names unless it has a better one. */
export const RULES_FORMAT_HINT = 'The rules file format: docs/rules.md';

function invalid(field: string | undefined, message: string, hint?: string): TxaError {
  return new TxaError('INVALID_RULES', message, { field, hint: hint ?? RULES_FORMAT_HINT });
}

const KEYS_AT: Record<number, readonly string[]> = { 0: ['mode', 'rules'], 2: ['name', 'match', 'set'] };

/** The keys allowed where an unknown key was found, from the depth of its object. */
function allowedKeys(path: PropertyKey[]): readonly string[] {
  if (path.length === 3) return path[2] === 'match' ? MATCH_KEYS : SET_KEYS;
  return KEYS_AT[path.length] ?? [];
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v = data;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** zod's first issue in the API's terms (docs/server.md "API conventions"): the dotted path and a sentence a user can act on. */
function issueError(issue: z.core.$ZodIssue, data: unknown): TxaError {
  const path = issue.path;
  const at = path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const field = [...path, issue.keys[0]!].map(String).join('.');
    return invalid(field, `unknown key '${issue.keys[0]}'; allowed here: ${allowedKeys(path).join(', ')}`);
  }
  const label = at === '' ? 'the rules file' : ruleLabel(path, data);
  if (valueAt(data, path) === undefined && path.length > 0) return invalid(at, `${label} is required`);
  if (issue.code === 'invalid_value') return invalid(at, `${label} must be one of ${issue.values.join(', ')}`);
  if (issue.code === 'invalid_type') return invalid(at || undefined, `${label} must be ${typeName(issue.expected)}`);
  if (issue.code === 'invalid_union') {
    const expected = path[path.length - 1] === 'has_tags' ? 'true, false or a list of tag names' : 'a value or a list of values';
    return invalid(at, `${label} must be ${expected}`);
  }
  return invalid(at || undefined, `${label} ${issue.message}`);
}

/**
 * A path in words a user finds in the file: a rule by its name and 1-based position, then the key
 * inside it (`rule 3 'gas fees': match.chain`); the error's field keeps the dotted path (`rules.2.match.chain`).
 */
function ruleLabel(path: PropertyKey[], data: unknown): string {
  if (path[0] !== 'rules' || typeof path[1] !== 'number') return path.map(String).join('.');
  const name = valueAt(data, ['rules', path[1], 'name']);
  const rule = `rule ${path[1] + 1}${typeof name === 'string' && name.trim() !== '' ? ` '${name}'` : ''}`;
  const rest = path.slice(2).map(String).join('.');
  return rest === '' ? rule : `${rule}: ${rest}`;
}

function typeName(expected: string): string {
  return ({ string: 'text', boolean: 'true or false', array: 'a list', object: 'a mapping (key: value)' } as Record<string, string>)[expected] ?? expected;
}

/**
 * The values `value` holds with every alias written out, counting each shared value once
 * (`sizes`): linear in the file however large the expansion. A value holding itself counts as
 * endless.
 */
function expandedValues(value: unknown, sizes: Map<object, number>): number {
  if (value === null || typeof value !== 'object') return 1;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  sizes.set(value, Infinity);
  let n = 1;
  for (const item of Object.values(value)) n += expandedValues(item, sizes);
  sizes.set(value, n);
  return n;
}

/**
 * The document's values. An alias is the anchored value itself, not a copy, so yaml's alias
 * count (at most 100, which 150 rules reusing one list exceed) is off: the size of the expansion,
 * counted once per value (expandedValues), tells a reused list from a billion laughs. An alias
 * to no anchor before it is a mistake in the file.
 */
function jsOf(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: -1 });
  } catch (err) {
    if (err instanceof ReferenceError) throw invalid('file', `the rules file is not valid YAML: ${err.message}`);
    throw err;
  }
}

/**
 * Parses YAML 1.2 (JSON is YAML too). Numbers keep the text they were written as: an amount of
 * 30 digits stays exact, and an unquoted 0x address (a hex number to YAML) stays an address.
 */
export function parseRulesText(source: string): RulesFile {
  const doc = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  const bad = doc.errors[0];
  if (bad) {
    const pos = bad.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    throw invalid('file', `the rules file is not valid YAML or JSON${where}: ${bad.message.split(' at line ')[0]!.split('\n')[0]}`);
  }
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'number' || typeof node.value === 'bigint') node.value = node.source ?? String(node.value);
    },
  });
  const data = jsOf(doc);
  if (expandedValues(data, new Map()) > MAX_EXPANDED_VALUES) {
    throw invalid('file', `the rules file's aliases (*name) expand it to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw invalid('file', 'the rules file must be a YAML or JSON mapping with a `rules` list (and optionally `mode`)');
  }
  const result = fileSchema.safeParse(data);
  if (!result.success) throw issueError(result.error.issues[0]!, data);
  return result.data;
}

/** A rules file is read as an import file is (bounded, encodings by byte-order mark), refused in rules' terms. */
const RULES_REFUSAL: Refusal = {
  code: 'INVALID_RULES',
  unreadable: 'IO_ERROR',
  format: 'YAML or JSON',
  limit: 'the limit of a rules file',
  tooLargeHint: RULES_FORMAT_HINT,
};

export function readRulesFile(path: string): RulesFile {
  // A YAML flow list or a JSON file may be one line: no line limit but the size.
  return parseRulesText(readImportFile(path, { maxBytes: MAX_FILE_BYTES, maxLineChars: MAX_FILE_BYTES, refusal: RULES_REFUSAL }));
}
