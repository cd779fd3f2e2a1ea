/** A rules file's validation: every mistake is INVALID_RULES with the dotted path of the offending value. */
import { describe, expect, it } from 'vitest';
import { txaErrorOf } from '../helpers/errors.js';
import { parseRulesText } from '../../src/rules/file.js';

const errorOf = (text: string) => {
  const e = txaErrorOf(() => parseRulesText(text));
  return { code: e.code, field: e.field, message: e.message };
};
const rule = (match: string, set = '{spam: true}') => `rules:\n  - {name: ok, match: {}, set: {spam: true}}\n  - {name: r, match: ${match}, set: ${set}}\n`;

describe('rules files', () => {
  it('reads YAML and JSON alike, mode first by default, numbers kept as written', () => {
    const yaml = parseRulesText(
      `rules:\n  - name: salary\n    match: {counterparty: 0x${'a'.repeat(40)}, min_amount: 0.10000000000000000001}\n    set: {tags: Salary}\n`,
    );
    const json = parseRulesText(JSON.stringify({ rules: [{ name: 'salary', match: { counterparty: `0x${'a'.repeat(40)}` }, set: { tags: 'Salary' } }] }));
    expect(yaml).toEqual({
      mode: 'first',
      rules: [{ name: 'salary', match: { counterparty: `0x${'a'.repeat(40)}`, min_amount: '0.10000000000000000001' }, set: { tags: 'Salary' } }],
    });
    expect(json.rules[0]!.match).toEqual({ counterparty: `0x${'a'.repeat(40)}` });
  });

  it('a file that is not YAML or JSON', () => {
    expect(errorOf('rules: [{name: a\nmatch: }')).toMatchObject({
      code: 'INVALID_RULES',
      field: 'file',
      message: expect.stringMatching(/not valid YAML or JSON at line \d+, column \d+/),
    });
    expect(errorOf('date,amount\n2024-01-01,5\n')).toMatchObject({ code: 'INVALID_RULES', field: 'file' });
    expect(errorOf('rules: []\nrules: []')).toMatchObject({ code: 'INVALID_RULES', field: 'file', message: expect.stringMatching(/unique/) });
  });

  it('unknown keys, at every level, with the keys allowed there', () => {
    expect(errorOf('rules: [{name: a, set: {spam: true}}]\nmodes: all')).toMatchObject({
      field: 'modes',
      message: expect.stringMatching(/allowed here: mode, rules/),
    });
    expect(errorOf(rule('{colour: red}'))).toMatchObject({
      code: 'INVALID_RULES',
      field: 'rules.1.match.colour',
      message: expect.stringMatching(/wallet_id, chain/),
    });
    expect(errorOf(rule('{}', '{tag: [A]}'))).toMatchObject({ field: 'rules.1.set.tag', message: expect.stringMatching(/tags, notes, internal, spam/) });
    expect(errorOf('rules:\n  - {name: a, match: {}, set: {spam: true}, when: now}')).toMatchObject({ field: 'rules.0.when' });
  });

  it('bad values at their path', () => {
    expect(errorOf(rule('{chain: dogechain}'))).toMatchObject({
      field: 'rules.1.match.chain',
      message: expect.stringMatching(/must be one of ethereum, polygon/),
    });
    expect(errorOf(rule('{direction: sideways}'))).toMatchObject({ field: 'rules.1.match.direction' });
    expect(errorOf(rule('{counterparty: [0x12]}'))).toMatchObject({ field: 'rules.1.match.counterparty.0', message: expect.stringMatching(/0x address/) });
    expect(errorOf(rule('{notes_contains: "/(unclosed/"}'))).toMatchObject({
      field: 'rules.1.match.notes_contains',
      message: expect.stringMatching(/regular expression/),
    });
    expect(errorOf(rule('{method: [transfer, ""]}'))).toMatchObject({ field: 'rules.1.match.method.1', message: expect.stringMatching(/must not be empty/) });
    expect(errorOf(rule('{}', '{internal: false}'))).toMatchObject({ field: 'rules.1.set.internal' });
    expect(errorOf(rule('{}', '{}'))).toMatchObject({ field: 'rules.1.set', message: expect.stringMatching(/at least one of tags/) });
    expect(errorOf(rule('{has_tags: maybe}'))).toMatchObject({ field: 'rules.1.match.has_tags' });
    expect(errorOf('mode: some\nrules: [{name: a, set: {spam: true}}]')).toMatchObject({ field: 'mode', message: 'mode must be one of first, all' });
  });

  it('an alias is expanded up to the bound on values, and must follow its anchor', () => {
    // 2 lists of 1,000 values reused 1,000 times each: 2,000,000 values and a few, just under the bound.
    const reuse = (copies: number) => {
      const list = `[${Array.from({ length: 1000 }, (_, i) => `"0x${i.toString(16).padStart(40, '0')}"`).join(', ')}]`;
      return `rules:\n  - {name: a, match: {counterparty: &a ${list}, method: &m ${list.replaceAll('0x', 'm')}}, set: {spam: true}}\n${Array.from({ length: copies }, (_, i) => `  - {name: r${i}, match: {counterparty: *a, method: *m}, set: {spam: true}}`).join('\n')}\n`;
    };
    expect(parseRulesText(reuse(1000)).rules).toHaveLength(1001);
    expect(errorOf(reuse(1050))).toMatchObject({
      code: 'INVALID_RULES',
      field: 'file',
      message: expect.stringMatching(/aliases \(\*name\) expand it to more than 2,097,152 values/),
    });
    expect(errorOf('rules: [{name: a, match: {counterparty: *later}, set: {spam: true}}]')).toMatchObject({
      code: 'INVALID_RULES',
      field: 'file',
      message: expect.stringMatching(/Unresolved alias/),
    });
  });

  it('missing pieces', () => {
    expect(errorOf('mode: all')).toMatchObject({ field: 'rules', message: 'rules is required' });
    expect(errorOf('rules: []')).toMatchObject({ field: 'rules', message: expect.stringMatching(/at least one rule/) });
    expect(errorOf('rules: [{match: {}, set: {spam: true}}]')).toMatchObject({ field: 'rules.0.name', message: 'rule 1: name is required' });
    expect(errorOf('rules: [{name: a, match: {}}]')).toMatchObject({ field: 'rules.0.set' });
    expect(errorOf('- a\n- b')).toMatchObject({ field: 'file' });
  });
});
