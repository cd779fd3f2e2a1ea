/** `txa completion` run in process (test/helpers/in-process.ts), on the whole command tree. */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { run } from '../../../src/cli/commands/completion/completion.js';
import { runInProcess } from '../../helpers/in-process.js';

const program = await buildProgram(['completion', 'bash']);

describe('txa completion, in process', () => {
  it('prints the bash script on stdout, nothing on stderr', async () => {
    const r = await runInProcess('txa completion', run, { shell: 'bash', program });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^complete -o filenames -F _txa txa$/m);
    expect(r.stdout).toContain('prices');
  });

  it('--json changes nothing: the script is no API body', async () => {
    const r = await runInProcess('txa completion', run, { shell: 'fish', program }, { json: true });
    expect(r.stdout).toMatch(/^complete -c txa /m);
  });

  it('an unknown shell is USAGE_ERROR (shell), exit 2', async () => {
    const r = await runInProcess('txa completion', run, { shell: 'tcsh', program });
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe("error: USAGE_ERROR (shell): shell must be one of bash, zsh, fish, got 'tcsh'\n");
  });
});
