/**
 * The limits of a rules file (docs/rules.md, Limits) on the built binary: regular expressions in
 * linear time, a bounded read, big generated files that apply in full, and YAML aliases that
 * reuse a list versus a "billion laughs" file.
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const s = sandbox();
s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Limits Co'])).data.id;
const A = `0x${'a'.repeat(40)}`;
const wallet = (await s.json(['wallet', 'add', '--address', A, '--chain', 'ethereum', '--label', 'Main'])).data.id as string;
const TAGS = Array.from({ length: 10 }, (_, i) => `T${i}`);
for (const name of [...TAGS, 'Hit']) await s.json(['tags', 'create', '--name', name, '--type', 'expense']);

/** The n-th counterparty address. */
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
/** A process that outlives this is the defect: a hang, or reading without end. */
const QUICK = { timeout: 30_000 };

let n = 0;
const row = (from: string, notes: string | null = null) => ({
  tx_hash: `0x${(++n).toString(16).padStart(64, '0')}`,
  chain: 'ethereum',
  from_address: from,
  to_address: A,
  token: { symbol: 'ETH', address: null, decimals: 18 },
  amount: '1',
  fiat_value: 100,
  direction: 'inflow',
  type: 'transfer',
  timestamp: `2025-03-${String((n % 28) + 1).padStart(2, '0')}T12:00:00Z`,
  notes,
});
const write = (name: string, text: string) => {
  writeFileSync(join(s.dir, name), text);
  return name;
};
const importRows = (rows: object[], ...extra: string[]) =>
  s.txa(['import', write(`rows-${n}.ndjson`, rows.map((r) => JSON.stringify(r)).join('\n')), '--wallet', wallet, ...extra], QUICK);

/** Counterparties of the rows: the rules below pick among them. */
const PARTIES = [0, 1, 49, 199, 200, 12_345, 19_999, 34_999, 99_999];
const expectOk = (r: { exitCode: number; stderr: string }) => expect(r.exitCode, r.stderr).toBe(0);
expectOk(await importRows(PARTIES.map((p) => row(addr(p)))));

interface Row {
  id: string;
  from_address: string;
  notes: string | null;
  tags: { name: string }[];
}
/** Each row's counterparty number with what the rules left on it. */
const byParty = async () => {
  const rows = (await s.json(['tx', 'list', '--all'])).data as Row[];
  return Object.fromEntries(rows.map((r) => [Number.parseInt(r.from_address, 16), { notes: r.notes, tags: r.tags.map((t) => t.name).sort() }]));
};
const reset = async () => {
  const rows = (await s.json(['tx', 'list', '--all'])).data as Row[];
  for (const r of rows) await s.json(['tx', 'update', r.id, '--notes', '', ...r.tags.flatMap((t) => ['--remove-tag', t.name])]);
};
const yamlList = (values: string[], indent: string) => values.map((v) => `${indent}- "${v}"`).join('\n');

describe('the file is read within a bound', () => {
  test('rules apply /dev/zero is refused at once, not read without end', async () => {
    const r = await s.txa(['rules', 'apply', '/dev/zero'], QUICK);
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([1, 'error: INVALID_RULES (file): the file is binary (a NUL byte at byte 0), not YAML or JSON text']);
  });

  test('a text file over 4 MiB is refused at the limit; import --rules refuses /dev/zero before importing', async () => {
    const r = await s.txa(['rules', 'apply', write('huge.yaml', 'rules: []\n#'.padEnd(5 * 1024 * 1024, '#'))], QUICK);
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([1, 'error: INVALID_RULES (file): the file is larger than 4 MiB, the limit of a rules file']);
    const before = Object.keys(await byParty()).length;
    const imported = await importRows([row(addr(1_000_003))], '--rules', '/dev/zero');
    expect([imported.exitCode, imported.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^error: INVALID_RULES \(file\)/)]);
    expect(Object.keys(await byParty())).toHaveLength(before);
  });

  test('a file that cannot be read is IO_ERROR', async () => {
    const r = await s.txa(['rules', 'apply', 'missing.yaml'], QUICK);
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([1, 'error: IO_ERROR (file): cannot read missing.yaml: no such file']);
  });
});

describe('regular expressions run in linear time', () => {
  // 41 characters that make a backtracking engine try 2^40 ways before failing.
  const HOSTILE = `${'a'.repeat(40)}!`;
  const RULES = 'rules:\n  - {name: nested, match: {notes_contains: "/(a+)+$/"}, set: {tags: [Hit]}}\n';

  test('rules apply and import --rules with /(a+)+$/ on a 41-character note finish, and match what they should', async () => {
    const rules = write('redos.yaml', RULES);
    expectOk(await importRows([row(addr(1_000_001), HOSTILE), row(addr(1_000_002), 'aaaa')], '--rules', rules));
    const dry = await s.txa(['rules', 'apply', rules, '--dry-run', '--json'], QUICK);
    expectOk(dry);
    const applied = await s.txa(['rules', 'apply', rules, '--json'], QUICK);
    expectOk(applied);
    // Only the note that ends in a's matches; the import already tagged it, so nothing is left to change.
    expect(JSON.parse(applied.stdout).data).toEqual({ dry_run: false, rules: [{ name: 'nested', matched: 1, changed: 0 }], changed: 0 });
    const rows = await byParty();
    expect([rows[1_000_001]!.tags, rows[1_000_002]!.tags]).toEqual([[], ['Hit']]);
  });

  test('a pattern only a backtracking engine can run is INVALID_RULES naming the rule', async () => {
    for (const pattern of ['/(a)\\\\1/', '/x(?=y)/']) {
      const r = await s.txa(
        [
          'rules',
          'apply',
          write('backref.yaml', `rules:\n  - {name: ok, set: {spam: false}}\n  - {name: b, match: {notes_contains: "${pattern}"}, set: {tags: [Hit]}}\n`),
        ],
        QUICK,
      );
      expect([r.exitCode, r.stderr], pattern).toEqual([1, expect.stringMatching(/^error: INVALID_RULES \(rules\.1\.match\.notes_contains\): .*linear-time/)]);
    }
  });
});

describe('big generated files apply in full', () => {
  test('1,000 rules in mode all: every matching rule applies, the last one setting notes wins', async () => {
    await reset();
    // Rule i matches counterparty i % 50 and adds tag T(i / 50 % 10): rows 0, 1 and 49 meet 20 rules each.
    const rules = Array.from(
      { length: 1000 },
      (_, i) => `  - {name: r${i}, match: {counterparty: "${addr(i % 50)}"}, set: {tags: [T${Math.floor(i / 50) % 10}], notes: "r${i}"}}`,
    );
    const r = await s.txa(['rules', 'apply', write('all.yaml', `mode: all\nrules:\n${rules.join('\n')}\n`), '--json'], QUICK);
    expectOk(r);
    const data = JSON.parse(r.stdout).data;
    expect(data.changed).toBe(3);
    expect(data.rules.filter((x: { matched: number }) => x.matched === 1)).toHaveLength(60);
    const rows = await byParty();
    for (const p of [0, 1, 49]) expect(rows[p], `row ${p}`).toEqual({ notes: `r${p + 950}`, tags: TAGS });
    expect(rows[199]).toEqual({ notes: null, tags: [] });
  });

  test('one rule with a list of 35,000 addresses', async () => {
    await reset();
    const list = Array.from({ length: 35_000 }, (_, i) => addr(i));
    const r = await s.txa(
      [
        'rules',
        'apply',
        write('list.yaml', `rules:\n  - name: payers\n    match:\n      counterparty:\n${yamlList(list, '        ')}\n    set: {tags: [Hit]}\n`),
        '--json',
      ],
      QUICK,
    );
    expectOk(r);
    expect(JSON.parse(r.stdout).data.rules).toEqual([{ name: 'payers', matched: 8, changed: 8 }]);
    const rows = await byParty();
    expect(PARTIES.filter((p) => rows[p]!.tags.includes('Hit'))).toEqual([0, 1, 49, 199, 200, 12_345, 19_999, 34_999]);
  });

  test('20,000 small rules in mode first: a row belongs to the first rule that matches it, wherever it is', async () => {
    await reset();
    // Rule i matches counterparty i; a last rule matches every row, and claims only those no rule before it did.
    const rules = Array.from({ length: 20_000 }, (_, i) => `  - {name: r${i}, match: {counterparty: "${addr(i)}"}, set: {notes: "r${i}"}}`);
    rules.push('  - {name: rest, set: {notes: rest}}');
    const r = await s.txa(['rules', 'apply', write('many.yaml', `rules:\n${rules.join('\n')}\n`), '--json'], QUICK);
    expectOk(r);
    const data = JSON.parse(r.stdout).data;
    const rows = await byParty();
    const rest = Object.keys(rows).length - 7;
    expect(data.rules[20_000]).toEqual({ name: 'rest', matched: rest, changed: rest });
    expect(PARTIES.map((p) => rows[p]!.notes)).toEqual(['r0', 'r1', 'r49', 'r199', 'r200', 'r12345', 'r19999', 'rest', 'rest']);
  });
});

describe('YAML aliases', () => {
  test('150 rules reusing one *payers list apply', async () => {
    await reset();
    const payers = [addr(0), addr(200), addr(19_999)];
    const rules = Array.from({ length: 150 }, (_, i) =>
      i === 0
        ? `  - name: r0\n    match:\n      counterparty: &payers\n${yamlList(payers, '        ')}\n    set: {tags: [T0]}`
        : `  - {name: r${i}, match: {counterparty: *payers}, set: {tags: [T${i % 10}]}}`,
    );
    const r = await s.txa(['rules', 'apply', write('aliases.yaml', `mode: all\nrules:\n${rules.join('\n')}\n`), '--json'], QUICK);
    expectOk(r);
    const rows = await byParty();
    expect([0, 200, 19_999, 1].map((p) => rows[p]!.tags)).toEqual([TAGS, TAGS, TAGS, []]);
  });

  test('a billion laughs is INVALID_RULES (file), refused at once', async () => {
    let yaml = `rules:\n  - name: laughs\n    match:\n      counterparty: &l0 [${Array(10)
      .fill(`"${addr(1)}"`)
      .join(', ')}]\n    set: {tags: [Hit]}\n`;
    for (let i = 1; i < 10; i++)
      yaml += `  - {name: l${i}, match: {counterparty: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]}, set: {tags: [Hit]}}\n`;
    const r = await s.txa(['rules', 'apply', write('laughs.yaml', yaml)], QUICK);
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([
      1,
      expect.stringMatching(/^error: INVALID_RULES \(file\): the rules file's aliases \(\*name\) expand it to more than [\d,]+ values$/),
    ]);
  });
});
