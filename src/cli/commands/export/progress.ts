/**
 * Progress of a running export on stderr: an ora spinner with a bar on a TTY, otherwise a plain
 * line every 10 percent (so CI logs stay short). Nothing with --json.
 */
import { terminalSafe, type Output } from '../../output.js';

export interface ProgressView {
  update(progress: number, detail?: string): void;
  stop(final: string, ok: boolean): void;
}

const BAR_WIDTH = 20;

function bar(progress: number): string {
  const full = Math.round((progress / 100) * BAR_WIDTH);
  return `[${'#'.repeat(full)}${'-'.repeat(BAR_WIDTH - full)}] ${progress}%`;
}

/** `label`, `detail` and `final` carry a server's export id and times, so they are made safe. */
export async function progressView(out: Output, rawLabel: string): Promise<ProgressView> {
  const label = terminalSafe(rawLabel);
  const tail = (detail?: string) => (detail ? ` ${terminalSafe(detail)}` : '');
  if (out.json) return { update: () => undefined, stop: () => undefined };
  // A terminal that reports no width (a pty without a size, as script(1) makes) gets the plain
  // lines: ora counts the lines to clear by dividing by the width, and never stops clearing.
  if (out.stderrTty && (process.stderr.columns ?? 0) > 0) {
    const { default: ora } = await import('ora');
    const spinner = ora({ text: `${label} ${bar(0)}`, stream: process.stderr }).start();
    return {
      update: (p, detail) => {
        spinner.text = `${label} ${bar(p)}${tail(detail)}`;
      },
      stop: (final, ok) => (ok ? spinner.succeed(terminalSafe(final)) : spinner.fail(terminalSafe(final))),
    };
  }
  let shown = -10;
  return {
    update: (p, detail) => {
      if (p < shown + 10 && p !== 100) return;
      shown = p;
      process.stderr.write(`${label} ${p}%${tail(detail)}\n`);
    },
    stop: (final) => process.stderr.write(`${terminalSafe(final)}\n`),
  };
}
