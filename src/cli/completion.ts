/**
 * Shell completion scripts generated from the commander tree: commands, subcommands, flags, and
 * the values of flags that take one of a known set (`--chain`, `--format`, …). The scripts are
 * static: the shell never runs txa to complete, so a TAB costs nothing.
 */
import type { Command, Option } from 'commander';
import { CHAINS, DIRECTIONS, EXCHANGES, EXPORT_FORMATS, SORTS, TAG_TYPES, TIERS } from '../core/types.js';
import { NAMED_PERIODS } from '../core/dates.js';
import { DELIVERY_METHODS } from '../core/export-schema.js';
import { BASIS_SCOPES, FEE_TREATMENTS, COST_BASIS, DATE_FORMATS, GROUP_BY, REPORT_TYPES } from '../core/export-values.js';
import { IMPORT_FORMATS } from '../importers/types.js';
import { EVENT_TYPES } from '../engine/webhooks.js';
import { ROLE_INPUTS } from '../core/members.js';
import { ACCESS_LEVELS } from '../engine/keys.js';
import { TRANSFER_STATUSES } from '../engine/transfers.js';
import { CHECK_KINDS } from '../core/check-kinds.js';
import { FREQUENCIES } from '../core/schedule-periods.js';
import { ALLOCATION_ORDERS, POOL_METHODS } from '../core/lots.js';
import { commandPath } from './run.js';

export type Shell = 'bash' | 'zsh' | 'fish';

const BOOLEANS = ['true', 'false'];

/** Values of a flag on one command, where the same flag means different things elsewhere. */
const VALUES_BY_COMMAND: Record<string, readonly string[]> = {
  'txa import --format': [...IMPORT_FORMATS, '1099da'],
  'txa export create --format': EXPORT_FORMATS,
  'txa schedules create --format': ['csv', 'json', 'pdf'],
  'txa schedules create --every': FREQUENCIES,
  'txa tags create --type': TAG_TYPES,
  'txa tags update --type': TAG_TYPES,
  'txa events list --type': EVENT_TYPES,
  'txa transfers list --status': TRANSFER_STATUSES,
  'txa lots allocate --order': ALLOCATION_ORDERS,
  'txa lots allocate --cost-basis': POOL_METHODS,
};

const VALUES_BY_FLAG: Record<string, readonly string[]> = {
  '--chain': CHAINS,
  '--exchange': EXCHANGES,
  '--direction': DIRECTIONS,
  '--sort': SORTS,
  '--tier': TIERS,
  '--role': ROLE_INPUTS,
  '--has-tags': BOOLEANS,
  '--has-notes': BOOLEANS,
  '--internal': BOOLEANS,
  '--spam': BOOLEANS,
  '--period': NAMED_PERIODS,
  '--report-type': REPORT_TYPES,
  '--group-by': GROUP_BY,
  '--cost-basis': COST_BASIS,
  '--basis-scope': BASIS_SCOPES,
  '--fee-treatment': FEE_TREATMENTS,
  '--date-format': DATE_FORMATS,
  '--allow': CHECK_KINDS,
  '--delivery': DELIVERY_METHODS,
  '--access': ACCESS_LEVELS,
};

interface Flag {
  long: string;
  short?: string;
  description: string;
  takesValue: boolean;
  values?: readonly string[];
}

interface Node {
  path: string;
  subcommands: { name: string; description: string }[];
  flags: Flag[];
}

/** The known set of values of a flag of the command at `path` (also listed by the CLI reference, src/cli/reference.ts). */
export function flagValues(path: string, o: Option): readonly string[] | undefined {
  return VALUES_BY_COMMAND[`${path} ${o.long}`] ?? (o.required || o.optional ? VALUES_BY_FLAG[o.long!] : undefined);
}

function flagsOf(path: string, options: readonly Option[]): Flag[] {
  return options
    .filter((o) => o.long && !o.hidden)
    .map((o) => ({
      long: o.long!,
      short: o.short,
      description: o.description,
      takesValue: o.required || o.optional,
      values: flagValues(path, o),
    }));
}

/** Every command of the tree with its subcommands and own flags; the root's flags (and `--help`) are the global ones. */
function nodesOf(program: Command): Node[] {
  const nodes: Node[] = [];
  const help: Flag = { long: '--help', short: '-h', description: 'show help', takesValue: false };
  const visit = (cmd: Command) => {
    const path = commandPath(cmd);
    const own = flagsOf(path, cmd.options);
    nodes.push({
      path,
      subcommands: cmd.commands.map((c) => ({ name: c.name(), description: c.description() })),
      flags: cmd === program ? [...own, help] : own,
    });
    cmd.commands.forEach(visit);
  };
  visit(program);
  return nodes;
}

const words = (list: readonly string[]) => list.join(' ');

/** Shell functions bash and zsh share: the subcommands, flags, value flags and values of a command path. */
function shellTables(nodes: Node[]): string {
  const globals = nodes[0]!.flags;
  const cases = (body: (n: Node) => string) =>
    nodes
      .map((n) => [n.path, body(n)])
      .filter(([, text]) => text !== '')
      .map(([path, text]) => `    '${path}') echo '${text}' ;;`)
      .join('\n');
  const names = (flags: Flag[]) => flags.flatMap((f) => (f.short ? [f.long, f.short] : [f.long]));
  const valueCases = nodes.flatMap((n) =>
    [...n.flags, ...globals].filter((f) => f.values).flatMap((f) => names([f]).map((name) => `    '${n.path} ${name}') echo '${words(f.values!)}' ;;`)),
  );
  return `_txa_subcommands() {
  case "$1" in
${cases((n) => words(n.subcommands.map((s) => s.name)))}
  esac
}
_txa_flags() {
  case "$1" in
${cases((n) => words(names(n.path === 'txa' ? n.flags : [...n.flags, ...globals])))}
  esac
}
_txa_value_flags() {
  case "$1" in
${cases((n) => words(names((n.path === 'txa' ? n.flags : [...n.flags, ...globals]).filter((f) => f.takesValue))))}
  esac
}
_txa_values() {
  case "$1 $2" in
${[...new Set(valueCases)].join('\n')}
  esac
}
_txa_path() {
  local cmdpath=txa w
  for w in "$@"; do
    case " $(_txa_subcommands "$cmdpath") " in *" $w "*) cmdpath="$cmdpath $w" ;; esac
  done
  echo "$cmdpath"
}
`;
}

function bash(nodes: Node[]): string {
  return `# txa completion for bash: source <(txa completion bash)
${shellTables(nodes)}
_txa() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmdpath
  cmdpath="$(_txa_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  if [[ " $(_txa_value_flags "$cmdpath") " == *" $prev "* ]]; then
    local values
    values="$(_txa_values "$cmdpath" "$prev")"
    if [[ -n "$values" ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_txa_flags "$cmdpath")" -- "$cur"))
  else
    local subs
    subs="$(_txa_subcommands "$cmdpath")"
    if [[ -n "$subs" ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
  fi
}
complete -o filenames -F _txa txa
`;
}

function zsh(nodes: Node[]): string {
  return `#compdef txa
# txa completion for zsh: txa completion zsh > "\${fpath[1]}/_txa" (or eval "$(txa completion zsh)")
${shellTables(nodes)}
_txa() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmdpath values subs
  cmdpath="$(_txa_path "\${(@)words[2,CURRENT-1]}")"
  if [[ " $(_txa_value_flags "$cmdpath") " == *" $prev "* ]]; then
    values="$(_txa_values "$cmdpath" "$prev")"
    if [[ -n "$values" ]]; then compadd -- \${=values}; else _files; fi
  elif [[ "$cur" == -* ]]; then
    compadd -- \${=$(_txa_flags "$cmdpath")}
  else
    subs="$(_txa_subcommands "$cmdpath")"
    if [[ -n "$subs" ]]; then compadd -- \${=subs}; else _files; fi
  fi
}
if [[ "$funcstack[1]" == _txa ]]; then _txa "$@"; else compdef _txa txa; fi
`;
}

/** A fish string: single quotes, with `\\` and `'` escaped. */
const fishQuote = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;

function fish(nodes: Node[]): string {
  const lines = [
    '# txa completion for fish: txa completion fish > ~/.config/fish/completions/txa.fish',
    'function __txa_path',
    '    set -l cmdpath txa',
    '    for w in (commandline -opc)[2..-1]',
    '        if contains -- $w (__txa_subcommands $cmdpath)',
    '            set cmdpath "$cmdpath $w"',
    '        end',
    '    end',
    '    echo $cmdpath',
    'end',
    'function __txa_subcommands',
    '    switch $argv[1]',
    ...nodes
      .filter((n) => n.subcommands.length > 0)
      .flatMap((n) => [`        case ${fishQuote(n.path)}`, `            printf '%s\\n' ${words(n.subcommands.map((s) => s.name))}`]),
    '    end',
    'end',
    'complete -c txa -f',
  ];
  for (const n of nodes) {
    const when = `-n ${fishQuote(`test (__txa_path) = ${fishQuote(n.path)}`)}`;
    for (const s of n.subcommands) lines.push(`complete -c txa ${when} -a ${s.name} -d ${fishQuote(s.description)}`);
    // The root's flags are global: they complete everywhere.
    for (const f of n.flags) {
      const scope = n.path === 'txa' ? '' : `${when} `;
      const short = f.short ? ` -s ${f.short.slice(1)}` : '';
      const value = f.values ? ` -x -a ${fishQuote(words(f.values))}` : f.takesValue ? ' -r -F' : '';
      lines.push(`complete -c txa ${scope}-l ${f.long.slice(2)}${short}${value} -d ${fishQuote(f.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes = nodesOf(program);
  return { bash, zsh, fish }[shell](nodes);
}
