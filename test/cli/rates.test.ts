/** `txa rates import` as a user runs it: a refused file prints like a refused `txa import` (docs/import.md). */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

let sb: Sandbox;
let bad: string;

beforeAll(async () => {
  sb = sandbox();
  sb.env.TXA_WORKSPACE = (await sb.json(['workspace', 'create', 'Rates'])).data.id;
  bad = join(sb.dir, 'bad.csv');
  writeFileSync(bad, 'date,currency,rate\n2024-03-05,EUR,0.9\n2024-02-30,EUR,1\n2024-03-06,EURO,1\n');
});

describe('txa rates import', () => {
  it('a bad file: the error line first, then one indented line per bad row, exit 1, nothing imported', async () => {
    const r = await sb.txa(['rates', 'import', bad]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `error: IMPORT_FAILED (date): 2 bad row(s) in ${bad}; nothing was imported (first: line 3, date: '2024-02-30' is not a date YYYY-MM-DD)`,
      "  line 3, date: '2024-02-30' is not a date YYYY-MM-DD",
      "  line 4, currency: 'EURO' is not a three-letter currency code",
    ]);
    expect((await sb.json(['rates', 'list'])).data).toEqual([]);
  });

  it('an empty file (/dev/null) starts with the error line too', async () => {
    const r = await sb.txa(['rates', 'import', '/dev/null']);
    expect(r.exitCode).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: IMPORT_FAILED \(date\): /);
    expect(lines.slice(1).every((l) => l.startsWith('  line 1, '))).toBe(true);
  });

  it('lists the first 20 bad rows then how many more', async () => {
    const file = join(sb.dir, 'many-bad.csv');
    writeFileSync(file, `date,currency,rate\n${'2024-02-30,EUR,1\n'.repeat(25)}`);
    const lines = (await sb.txa(['rates', 'import', file])).stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[21]).toBe('  … and 5 more');
  });

  it('with --json, stderr is exactly the API error body with every bad row', async () => {
    const r = await sb.txa(['rates', 'import', bad, '--json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'IMPORT_FAILED',
      field: 'date',
      error_count: 2,
      errors: [
        { line: 3, field: 'date', reason: "'2024-02-30' is not a date YYYY-MM-DD" },
        { line: 4, field: 'currency', reason: "'EURO' is not a three-letter currency code" },
      ],
    });
  });

  it('a good file imports its rates', async () => {
    const good = join(sb.dir, 'good.csv');
    writeFileSync(good, 'date,currency,rate\n2024-03-05,EUR,0.9\n');
    expect(await sb.txa(['rates', 'import', good])).toMatchObject({ exitCode: 0, stdout: 'imported 1 rates' });
  });
});
