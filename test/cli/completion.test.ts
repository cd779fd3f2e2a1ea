/**
 * `txa completion bash|zsh|fish` prints a completion script made from the command tree. The bash
 * script is loaded into a real bash and asked for completions; zsh and fish are parsed by their
 * shells where installed, else checked for their structure. An unknown shell is a usage error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { CHAINS, EXPORT_FORMATS } from '../../src/core/types.js';

const CHAIN_WORDS = CHAINS.join(' ');

let s: Sandbox;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  s = sandbox();
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await s.txa(['completion', shell]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    scripts[shell] = r.stdout;
    writeFileSync(join(s.dir, `txa.${shell}`), r.stdout);
  }
});

const installed = (shell: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`]);
    return true;
  } catch {
    return false;
  }
};

/** What bash's completion offers for the command line `words` (the last word is the one being completed). */
function bashComplete(words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    ['-c', `source "$0"; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _txa; printf '%s\\n' "\${COMPREPLY[@]}"`, join(s.dir, 'txa.bash')],
    { encoding: 'utf8', cwd: s.dir },
  );
  return out.split('\n').filter(Boolean);
}

describe('completion bash', () => {
  it('loads into bash and registers txa', () => {
    const out = execFileSync('bash', ['-c', 'source <(txa completion bash); complete -p txa'], {
      encoding: 'utf8',
      env: { ...process.env, ...s.env, PATH: `${join(import.meta.dirname, '../../bin')}:${process.env.PATH}` },
    });
    expect(out.trim()).toBe('complete -o filenames -F _txa txa');
  });

  it('completes nouns, verbs, flags with the global ones, and known values per command', () => {
    expect(bashComplete(['txa', 'wo'])).toEqual(['workspace']);
    expect(bashComplete(['txa', '-w', 'ws_1', 'tx', ''])).toEqual(['list', 'get', 'tag', 'untag', 'update', 'attach', 'history']);
    expect(bashComplete(['txa', 'workspace', 'update', 'ws_1', '--'])).toEqual(
      expect.arrayContaining(['--name', '--tier', '--currency', '--rate-limit', '--json', '--workspace', '--db', '--help']),
    );
    expect(bashComplete(['txa', 'tx', 'list', '--chain', ''])).toEqual(expect.arrayContaining(['ethereum', 'polygon', 'arbitrum', 'bsc']));
    expect(bashComplete(['txa', 'tx', 'list', '--sort', 'amount'])).toEqual(['amount_desc', 'amount_asc']);
    expect(bashComplete(['txa', 'import', 'f.csv', '--format', ''])).toEqual([
      'auto',
      'json',
      'ndjson',
      'csv',
      'etherscan',
      'koinly',
      'rotki',
      'coinbase',
      'kraken',
      'binance',
      'gemini',
      'exchange-csv',
      '1099da',
    ]);
    expect(bashComplete(['txa', 'export', 'create', '--format', ''])).toEqual([...EXPORT_FORMATS]);
    expect(bashComplete(['txa', 'workspace', 'create', 'X', '--tier', ''])).toEqual(['free', 'pro', 'enterprise']);
    expect(bashComplete(['txa', 'completion', 'txa.b'])).toEqual(['txa.bash']); // no subcommands: files
  });

  it('completes the values of the accounting flags (docs/reference/cli.md)', () => {
    expect(bashComplete(['txa', 'tx', 'list', '--internal', ''])).toEqual(['true', 'false']);
    expect(bashComplete(['txa', 'export', 'create', '--internal', ''])).toEqual(['true', 'false']);
    expect(bashComplete(['txa', 'tx', 'update', 'tx_1', '--spam', ''])).toEqual(['true', 'false']);
    expect(bashComplete(['txa', 'export', 'create', '--basis-scope', ''])).toEqual(['wallet', 'universal']);
    expect(bashComplete(['txa', 'export', 'create', '--fee-treatment', ''])).toEqual(['adjust', 'separate']);
    expect(bashComplete(['txa', 'export', 'create', '--date-format', ''])).toEqual(['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY']);
    expect(bashComplete(['txa', 'transfers', 'list', '--status', ''])).toEqual(['matched', 'candidate']);
    expect(bashComplete(['txa', 'check', '--allow', 'un'])).toEqual(['untagged', 'unpriced', 'unmatched_transfer', 'unrecorded_allocation']);
    expect(bashComplete(['txa', 'lots', 'allocate', '--order', ''])).toEqual(['fifo', 'hifo', 'lifo']);
    expect(bashComplete(['txa', 'lots', 'allocate', '--cost-basis', ''])).toEqual(['fifo', 'lifo', 'hifo']);
  });

  it('a flag whose value is free (a path, a name) completes files', () => {
    expect(bashComplete(['txa', 'export', 'download', 'exp_1', '--out', 'txa.f'])).toEqual(['txa.fish']);
  });
});

describe('completion zsh and fish', () => {
  it('zsh: parses (zsh -n) or has the structure of a zsh completion function', () => {
    const zsh = scripts.zsh!;
    if (installed('zsh')) execFileSync('zsh', ['-n', join(s.dir, 'txa.zsh')]);
    expect(zsh.startsWith('#compdef txa\n')).toBe(true);
    expect(zsh).toContain('compdef _txa txa');
    expect(zsh).toContain(`'txa tx list --chain') echo '${CHAIN_WORDS}' ;;`);
    // Its shared functions are plain sh: bash can parse the script up to zsh's own expansions.
    expect(zsh).toContain('${(@)words[2,CURRENT-1]}');
  });

  it('fish: parses (fish -n) or is one complete/function line each with balanced quotes', () => {
    const fish = scripts.fish!;
    if (installed('fish')) execFileSync('fish', ['-n', join(s.dir, 'txa.fish')]);
    const lines = fish.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines.filter((l) => /^(function|switch|for|if)\b/.test(l.trim())).length).toBe(lines.filter((l) => l.trim() === 'end').length);
    for (const l of lines) expect(l.replace(/\\./g, '').split("'").length % 2, l).toBe(1);
    expect(fish).toContain(`complete -c txa -n 'test (__txa_path) = \\'txa tx list\\'' -l chain -x -a '${CHAIN_WORDS}'`);
    expect(fish).toContain("complete -c txa -l workspace -s w -r -F -d 'workspace to work on (env TXA_WORKSPACE)'");
  });
});

describe('completion for an unknown shell', () => {
  it('is USAGE_ERROR (shell), exit 2, and writes nothing', async () => {
    const fresh = sandbox();
    const r = await fresh.txa(['completion', 'tcsh']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, '', "error: USAGE_ERROR (shell): shell must be one of bash, zsh, fish, got 'tcsh'"]);
    const json = await fresh.txa(['completion', 'tcsh', '--json']);
    expect(JSON.parse(json.stderr).error).toEqual({ code: 'USAGE_ERROR', message: "shell must be one of bash, zsh, fish, got 'tcsh'", field: 'shell' });
    expect(existsSync(fresh.env.TXA_DB!)).toBe(false);
    expect(existsSync(fresh.env.TXA_CONFIG_DIR!)).toBe(false);
    const missing = await fresh.txa(['completion']);
    expect([missing.exitCode, missing.stderr.split('\n')[0]]).toEqual([2, "error: USAGE_ERROR (shell): missing required argument 'shell'"]);
  });
});
