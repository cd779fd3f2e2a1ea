/** Shell pipelines that stop reading early (`| head`) end txa quietly, not with an EPIPE stack. */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { sandbox, BIN } from '../helpers/cli.js';

describe('txa in a pipeline', () => {
  it('`tx list --all | head -1` and `| true` end quietly with exit 0', async () => {
    const s = sandbox();
    expect((await s.txa(['demo', '--dir', `${s.dir}/reports`])).exitCode).toBe(0);
    // More than a pipe buffer (64 KiB) of rows, so txa is still writing when head exits.
    const r = await execa('bash', ['-c', `"${BIN}" -w ws_demo_acme tx list --all | head -1; echo "txa exit \${PIPESTATUS[0]}" >&2`], {
      env: s.env,
      cwd: s.dir,
      reject: false,
    });
    expect(String(r.stdout).split('\n')).toHaveLength(1);
    expect(String(r.stderr)).not.toMatch(/EPIPE|Error|at /);
    expect(String(r.stderr)).toMatch(/txa exit 0/);
    // A reader that exits before txa writes anything: the first write already fails.
    const gone = await execa('bash', ['-c', `"${BIN}" -w ws_demo_acme tx list --all | true; echo "txa exit \${PIPESTATUS[0]}" >&2`], {
      env: s.env,
      cwd: s.dir,
      reject: false,
    });
    expect(String(gone.stderr)).not.toMatch(/EPIPE|Error|at /);
    expect(String(gone.stderr)).toMatch(/txa exit 0/);
  });
});
