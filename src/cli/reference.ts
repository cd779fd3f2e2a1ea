/**
 * docs/reference/cli.md from the commander tree: every command path with its description, usage,
 * arguments, options (defaults and known values included) and the examples of its help
 * (examples.ts). Pure: the same tree gives the same text, in the tree's order, with no date.
 * `npm run reference` writes it (write-reference.ts); test/cli/reference.test.ts fails when the
 * file is stale.
 */
import type { Argument, Command, Option } from 'commander';
import { anchor, code, escapeMd, wrap } from '../core/markdown.js';
import { exitCodes } from '../core/errors.js';
import { flagValues } from './completion.js';
import { EXAMPLES } from './examples.js';
import { commandPath } from './run.js';

function* tree(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* tree(sub);
}

/** A list item: `- head: text`, wrapped, with its continuation lines indented under the item. */
const item = (head: string, text: string) => wrap(text === '' ? head : `${head}: ${escapeMd(text)}`, '- ', '  ');

function optionNotes(path: string, o: Option): string[] {
  const notes: string[] = [];
  const takesValue = o.required || o.optional;
  if (o.mandatory) notes.push('required');
  if (takesValue && o.defaultValue !== undefined) notes.push(`default: ${code(o.defaultValueDescription ?? String(o.defaultValue))}`);
  const values = o.argChoices ?? flagValues(path, o);
  if (values) notes.push(`values: ${values.map(code).join(', ')}`);
  if (o.envVar) notes.push(`env: ${code(o.envVar)}`);
  return notes;
}

function optionItem(path: string, o: Option): string {
  const notes = optionNotes(path, o);
  const text = notes.length === 0 ? escapeMd(o.description) : `${escapeMd(o.description)} (${notes.join('; ')})`;
  return wrap(`${code(o.flags)}: ${text}`, '- ', '  ');
}

function argumentItem(a: Argument): string {
  const name = a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`;
  const notes = [a.required ? 'required' : 'optional'];
  if (a.variadic) notes.push('one or more');
  if (a.defaultValue !== undefined) notes.push(`default: ${code(a.defaultValueDescription ?? String(a.defaultValue))}`);
  if (a.argChoices) notes.push(`values: ${a.argChoices.map(code).join(', ')}`);
  const text = a.description ? `${escapeMd(a.description)} (${notes.join('; ')})` : `(${notes.join('; ')})`;
  return wrap(`${code(name)}: ${text}`, '- ', '  ');
}

function examplesBlock(lines: string[]): string {
  return ['```sh', ...lines, '```'].join('\n');
}

function section(cmd: Command, depth: number): string {
  const path = commandPath(cmd);
  const parts = [`${'#'.repeat(Math.min(Math.max(depth, 1) + 1, 6))} ${path}`, wrap(escapeMd(cmd.description()))];
  parts.push(`Usage: ${code(`${path} ${cmd.usage()}`)}`);
  if (cmd.aliases().length > 0) parts.push(`Aliases: ${cmd.aliases().map(code).join(', ')}`);
  if (cmd.commands.length > 0) {
    parts.push(['Commands:', '', ...cmd.commands.map((c) => item(`[${c.name()}](#${anchor(commandPath(c))})`, c.summary() || c.description()))].join('\n'));
  }
  const args = cmd.registeredArguments;
  if (args.length > 0) parts.push(['Arguments:', '', ...args.map(argumentItem)].join('\n'));
  const options = cmd.options.filter((o) => !o.hidden);
  if (options.length > 0) parts.push(['Options:', '', ...options.map((o) => optionItem(path, o))].join('\n'));
  const examples = EXAMPLES[path];
  if (examples) parts.push(['Examples:', '', examplesBlock(examples)].join('\n'));
  return parts.join('\n\n');
}

/** The whole reference of `program` (built with every noun registered, as `txa completion` and `--help` build it). */
export function cliReference(program: Command): string {
  const depth = (cmd: Command) => {
    let n = 0;
    for (let c = cmd.parent; c; c = c.parent) n++;
    return n;
  };
  const root = program.name();
  const header = [
    `# ${root} command reference`,
    wrap(
      'Generated from the command tree by `npm run reference` (src/cli/reference.ts): do not edit by hand. ' +
        'test/cli/reference.test.ts fails when this file is stale. The HTTP API is in [api.md](api.md).',
    ),
    wrap(`The global options of \`${root}\` (below) are taken by every command. \`-h, --help\` prints a command's help, with these ` + 'examples at its end.'),
    [
      '## Exit codes',
      '',
      ...Object.entries({
        ok: 'success',
        error: 'an error from the engine or the API: validation, not found, conflict, … ([api.md](api.md#error-codes) gives each code its exit code)',
        usage: 'a usage error: unknown command or flag, missing workspace, a bad flag value found before any request, no TTY where a prompt would ask',
        auth: 'authentication or authorization refused (`UNAUTHORIZED`, `FORBIDDEN`, `INSUFFICIENT_PERMISSIONS`, `SYNC_UNAUTHORIZED`)',
        limit: 'a tier limit, quota or rate limit (`TAG_LIMIT_EXCEEDED`, `EXPORT_TOO_LARGE`, any 429)',
      }).map(([name, text]) => item(code(String(exitCodes[name as keyof typeof exitCodes])), text)),
      '',
      wrap('`txa check` also exits 1 when it finds something to fix; a job stopped by a signal exits 128 + the signal number.'),
    ].join('\n'),
  ];
  const commands = [...tree(program)].map((cmd) => section(cmd, depth(cmd)));
  return `${[...header, ...commands].join('\n\n')}\n`;
}
