/**
 * Progress of a running export on stderr: an ora spinner with a bar on a TTY, otherwise a plain
 * line every 10 percent (so CI logs stay short). Nothing with --json.
 */
import { terminalSafe, type Output } from '../../output.js';

export interface ProgressView {
  update(progress: number, detail?: string): void;
  stop(final: string, ok: boolean): void;
}

export interface ProgressOptions {
  /** Shows nothing until the work has run this long, so a quick one stays silent (default: at once). */
  afterMs?: number;
  /** Only on a terminal: in a pipe, nothing (a download's caller reads its result, not its course). */
  terminalOnly?: boolean;
}

const BAR_WIDTH = 20;
const SILENT: ProgressView = { update: () => undefined, stop: () => undefined };

function bar(progress: number): string {
  const full = Math.round((progress / 100) * BAR_WIDTH);
  return `[${'#'.repeat(full)}${'-'.repeat(BAR_WIDTH - full)}] ${progress}%`;
}

/** `label`, `detail` and `final` carry a server's export id and times, so they are made safe. */
export async function progressView(out: Output, rawLabel: string, opts: ProgressOptions = {}): Promise<ProgressView> {
  const label = terminalSafe(rawLabel);
  const tail = (detail?: string) => (detail ? ` ${terminalSafe(detail)}` : '');
  if (out.json || (opts.terminalOnly && !out.stderrTty)) return SILENT;
  const startMs = Date.now();
  const due = () => Date.now() - startMs >= (opts.afterMs ?? 0);
  // A terminal that reports no width (a pty without a size, as script(1) makes) gets the plain
  // lines: ora counts the lines to clear by dividing by the width, and never stops clearing.
  if (out.stderrTty && (out.stderr.columns ?? 0) > 0) {
    const { default: ora } = await import('ora');
    const spinner = ora({ text: `${label} ${bar(0)}`, stream: out.stderr as NodeJS.WritableStream });
    // Also shown when the time comes between two updates (a long step reports none).
    let timer: NodeJS.Timeout | undefined;
    if (opts.afterMs === undefined) spinner.start();
    else timer = setTimeout(() => spinner.start(), opts.afterMs);
    return {
      update: (p, detail) => {
        spinner.text = `${label} ${bar(p)}${tail(detail)}`;
        if (!spinner.isSpinning && due()) spinner.start();
      },
      stop: (final, ok) => {
        clearTimeout(timer);
        if (!spinner.isSpinning) return;
        if (ok) spinner.succeed(terminalSafe(final));
        else spinner.fail(terminalSafe(final));
      },
    };
  }
  let shown = -10;
  return {
    update: (p, detail) => {
      if ((p < shown + 10 && p !== 100) || !due()) return;
      shown = p;
      out.stderr.write(`${label} ${p}%${tail(detail)}\n`);
    },
    // A view that waited and never showed stays silent to the end.
    stop: (final) => {
      if (opts.afterMs === undefined || shown >= 0) out.stderr.write(`${terminalSafe(final)}\n`);
    },
  };
}
