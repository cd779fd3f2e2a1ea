/**
 * `txa rules apply` and `txa import --rules` on the built binary: YAML and JSON files, the
 * `--json` body of docs/rules.md "Running" exactly, dry runs, bad files (exit 1, INVALID_RULES and the
 * dotted field, nothing changed), and rules on an import's new rows only.
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Rules Co'])).data.id;
const A = `0x${'a'.repeat(40)}`;
const EMPLOYER = `0x${'e'.repeat(40)}`;
const SHOP = `0x${'5'.repeat(40)}`;
const wallet = (await s.json(['wallet', 'add', '--address', A, '--chain', 'ethereum', '--label', 'Main'])).data.id as string;
await s.json(['tags', 'create', '--name', 'Salary', '--type', 'income']);
await s.json(['tags', 'create', '--name', 'Shopping', '--type', 'expense']);

let n = 0;
const row = (from: string, to: string, amount: string, direction: string, day: string) => ({
  tx_hash: `0x${(++n).toString(16).padStart(64, '0')}`,
  chain: 'ethereum',
  from_address: from,
  to_address: to,
  token: { symbol: 'ETH', address: null, decimals: 18 },
  amount,
  fiat_value: 100,
  direction,
  type: 'transfer',
  timestamp: `${day}T12:00:00Z`,
});
const write = (name: string, text: string) => {
  writeFileSync(join(s.dir, name), text);
  return name;
};
const rowsFile = (rows: object[]) => write('rows.ndjson', rows.map((r) => JSON.stringify(r)).join('\n'));
const expectOk = (r: { exitCode: number; stderr: string }) => expect(r.exitCode, r.stderr).toBe(0);
expectOk(await s.txa(['import', rowsFile([row(EMPLOYER, A, '2', 'inflow', '2025-01-31'), row(A, SHOP, '0.1', 'outflow', '2025-02-03')]), '--wallet', wallet]));

const YAML = `# the monthly rules
mode: first
rules:
  - name: salary
    match:
      direction: inflow
      counterparty: ${EMPLOYER}
    set:
      tags: [salary]
      notes: Payroll
  - name: shop
    match: {counterparty: [${SHOP}], max_amount: 1}
    set: {tags: [Shopping]}
  - name: polygon
    match: {chain: polygon}
    set: {spam: true}
`;
const list = async () =>
  (await s.json(['tx', 'list', '--all', '--sort', 'timestamp_asc'])).data as { id: string; tags: { name: string }[]; notes: string | null }[];

describe('txa rules apply', () => {
  test('--dry-run prints per rule the rows it would change and a sample, and writes nothing', async () => {
    const r = await s.txa(['rules', 'apply', write('rules.yaml', YAML), '--dry-run']);
    expectOk(r);
    expect(r.stdout).toContain('salary\t1\t1\nshop\t1\t1\npolygon\t0\t0\n');
    expect(r.stdout).toMatch(
      /salary: 1 would change, for example\n {2}2025-01-31T12:00:00Z {2}tx_\w+ {2}Main {2}inflow {2}2 ETH {2}tags: Salary {2}notes: Payroll/,
    );
    expect(r.stderr).toContain('warning: rule 2 (polygon) matches no transaction');
    expect(r.stderr).toContain('2 transactions would change (dry run: nothing was written)');
    expect((await list()).map((t) => t.tags.length)).toEqual([0, 0]);
  });

  test('--json: exactly the body of docs/rules.md "Running"; a second run changes nothing', async () => {
    const first = await s.json(['rules', 'apply', 'rules.yaml']);
    expect(first).toEqual({
      success: true,
      data: {
        dry_run: false,
        rules: [
          { name: 'salary', matched: 1, changed: 1 },
          { name: 'shop', matched: 1, changed: 1 },
          { name: 'polygon', matched: 0, changed: 0 },
        ],
        changed: 2,
      },
    });
    expect((await list()).map((t) => [t.tags.map((g) => g.name), t.notes])).toEqual([
      [['Salary'], 'Payroll'],
      [['Shopping'], null],
    ]);
    const again = await s.json(['rules', 'apply', 'rules.yaml']);
    expect(again.data.changed).toBe(0);
    expect(again.data.rules.map((r: { changed: number }) => r.changed)).toEqual([0, 0, 0]);
  });

  test('a JSON rules file works the same', async () => {
    const file = write('rules.json', JSON.stringify({ mode: 'all', rules: [{ name: 'notes', match: { direction: 'outflow' }, set: { notes: 'Card' } }] }));
    expect((await s.json(['rules', 'apply', file, '--period', '2025-02'])).data).toEqual({
      dry_run: false,
      rules: [{ name: 'notes', matched: 1, changed: 1 }],
      changed: 1,
    });
  });

  test('a bad file: exit 1, INVALID_RULES with the dotted path, nothing changed', async () => {
    const before = await list();
    const bad = write('bad.yaml', YAML.replace('chain: polygon', 'chain: dogecoin'));
    const r = await s.txa(['rules', 'apply', bad]);
    expect(r.exitCode).toBe(1);
    // The field is the dotted path; the message names the rule by its name and 1-based position.
    expect(r.stderr).toMatch(/^error: INVALID_RULES \(rules\.2\.match\.chain\): rule 3 'polygon': match\.chain must be one of ethereum/);
    const j = await s.txa(['rules', 'apply', write('bad.json', '{"rules": [{"name": "x", "set": {"tags": ["Nope"]}}]}'), '--json']);
    expect(j.exitCode).toBe(1);
    expect(JSON.parse(j.stderr)).toMatchObject({ success: false, error: { code: 'INVALID_RULES', field: 'rules.0.set.tags.0' } });
    // A bad value found while compiling the rules names the format as well as one found while reading them.
    for (const match of ['{start_date: 2025-13-01}', '{start_date: 2025-02-01, end_date: 2025-01-01}', '{min_amount: abc}']) {
      const value = await s.txa(['rules', 'apply', write('bad-value.yaml', `rules: [{name: d, match: ${match}, set: {notes: x}}]`)]);
      expect([value.exitCode, value.stderr], match).toEqual([
        1,
        expect.stringMatching(/^error: INVALID_RULES \(rules\.0\.match\.\w+\): .*\nThe rules file format: docs\/rules\.md$/),
      ]);
    }
    const notYaml = await s.txa(['rules', 'apply', write('bad.txt', 'rules: [unclosed')]);
    expect([notYaml.exitCode, notYaml.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: INVALID_RULES \(file\): the rules file is not valid YAML or JSON at line 1/),
    ]);
    expect(await list()).toEqual(before);
  });
});

describe('txa import --rules', () => {
  test('rules the new rows only, in the import; --json carries their outcome', async () => {
    const rules = write('import-rules.yaml', 'rules:\n  - {name: inflows, match: {direction: inflow}, set: {notes: Received}}\n');
    const r = await s.json(['import', rowsFile([row(EMPLOYER, A, '3', 'inflow', '2025-03-31')]), '--wallet', wallet, '--rules', rules]);
    expect(r.data).toMatchObject({ imported: 1, rules: { dry_run: false, rules: [{ name: 'inflows', matched: 1, changed: 1 }], changed: 1 } });
    // The January inflow keeps its notes: it was not new.
    expect((await list()).map((t) => t.notes)).toEqual(['Payroll', 'Card', 'Received']);
  });

  test('a rules file naming an unknown tag stops the import: nothing imported', async () => {
    const rules = write('unknown-tag.yaml', 'rules:\n  - {name: t, match: {}, set: {tags: [Travel]}}\n');
    const r = await s.txa(['import', rowsFile([row(EMPLOYER, A, '4', 'inflow', '2025-04-30')]), '--wallet', wallet, '--rules', rules]);
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringMatching(/^error: INVALID_RULES \(rules\.0\.set\.tags\.0\): .*no tag named 'Travel'/)]);
    expect(await list()).toHaveLength(3);
  });
});
