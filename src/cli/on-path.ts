/** Whether `txa` is a command of the shell (on PATH), for hints that name it (docs/cli.md). */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function txaOnPath(): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'txa'), constants.X_OK);
      return true;
    } catch {
      // not in this one
    }
  }
  return false;
}

/** The line that says how to run `txa` from a checkout where it is not on PATH yet; undefined when it is. */
export function pathNote(): string | undefined {
  return txaOnPath() ? undefined : '(txa is not on your PATH: run ./bin/txa from the checkout, or `npm link` once to put txa there)';
}
