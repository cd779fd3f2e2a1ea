/** Help as gh shows it: every command ends with examples, and a subcommand's help lists the global flags it takes. */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { sandbox } from '../helpers/cli.js';
import { buildProgram } from '../../src/cli/program.js';
import { commandPath } from '../../src/cli/run.js';
import { EXAMPLES } from '../../src/cli/examples.js';

function* tree(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* tree(sub);
}

describe('help', () => {
  it('every command of the tree has examples, each naming the command itself', async () => {
    const program = await buildProgram(['--help']);
    const paths = [...tree(program)].map(commandPath);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => !EXAMPLES[p])).toEqual([]);
    for (const p of paths)
      expect(
        EXAMPLES[p]!.filter((l) => !l.startsWith('#')).every((l) => l.startsWith('txa ') || l.includes('txa ')),
        p,
      ).toBe(true);
    expect(Object.keys(EXAMPLES).filter((p) => !paths.includes(p))).toEqual([]); // none for a command that is gone
  });

  it.each([['tx', 'list'], ['workspace', 'update'], ['export', 'create'], ['completion']])(
    'txa %s --help shows the global flags and the examples',
    async (...words) => {
      const r = await sandbox().txa([...words, '--help']);
      expect(r.exitCode).toBe(0);
      const [, globals = ''] = r.stdout.split('Global Options:');
      for (const flag of ['--json', '-w, --workspace <id>', '--db <path>', '--profile <name>', '--base-url <url>', '--no-color'])
        expect(globals).toContain(flag);
      expect(r.stdout).toMatch(new RegExp(`\\nExamples:\\n(  (# .*|\\$ txa ${words.join(' ')}.*)\\n)+`));
    },
  );

  it('a noun alone shows its help with examples', async () => {
    const r = await sandbox().txa(['tags']);
    expect(r.stderr + r.stdout).toMatch(/Examples:\n {2}\$ txa tags create --name Payroll --type expense/);
  });
});

describe('flag values in help', () => {
  it('a flag with a known set of values names every value in its help line, as completion offers them', async () => {
    const script = (await sandbox().txa(['completion', 'bash'])).stdout;
    const entries = [...script.matchAll(/^ {4}'(txa [^']*) (--[a-z-]+)'\) echo '([^']*)' ;;$/gm)];
    expect(entries.length).toBeGreaterThan(20);
    const program = await buildProgram(['--help']);
    const byPath = new Map([...tree(program)].map((c) => [commandPath(c), c]));
    // `events list --type` names one example: its eleven event names are in `txa events list` itself.
    const missing = entries
      .filter(([, path]) => path !== 'txa events list')
      .flatMap(([, path, flag, values]) => {
        const option = byPath.get(path!)!.options.find((o) => o.long === flag)!;
        return values!
          .split(' ')
          .filter((v) => !option.description.includes(v))
          .map((v) => `${path} ${flag}: ${v}`);
      });
    expect(missing).toEqual([]);
  });
});
