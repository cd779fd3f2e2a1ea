/**
 * SIGINT, SIGTERM and SIGHUP while this command runs an export job on the local ledger
 * (docs/exports.md, "Interrupted jobs"). The first signal aborts the job, which stops at its next
 * progress update, removes its partial file and records the export `failed` with INTERRUPTED;
 * the command then ends with 128 + the signal's number (130, 143, 129). A job still running 2 s
 * later (a long step without progress updates), or a second signal, is failed at once the same
 * way and the process exits.
 */
import { TxaError } from '../../../core/errors.js';
import type { ExportsService } from '../../../local/services.js';
import type { Output } from '../../output.js';

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNALS;
const GRACE_MS = 2000;

function interrupted(signal: Signal): TxaError {
  return new TxaError('INTERRUPTED', `interrupted by ${signal}; the export job this command ran is recorded as failed`, {
    exitCode: 128 + SIGNALS[signal],
    hint: 'See it with: txa export list',
  });
}

/** Runs `work` with the signals above turned into an abort of `signal`, and the exit code they call for. */
export async function interruptible<T>(exports: ExportsService, out: Output, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let received: Signal | undefined;
  let grace: NodeJS.Timeout | undefined;
  const failNow = () => {
    const e = interrupted(received!);
    exports.failOwn(e.code, e.message);
    out.error(e);
    process.exit(e.exitCode);
  };
  const handlers = Object.keys(SIGNALS).map((name) => {
    const handler = () => {
      if (received) return failNow();
      received = name as Signal;
      controller.abort(interrupted(received));
      grace = setTimeout(failNow, GRACE_MS);
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  try {
    const result = await work(controller.signal);
    if (received) throw interrupted(received);
    return result;
  } catch (err) {
    throw received ? interrupted(received) : err;
  } finally {
    clearTimeout(grace);
    for (const off of handlers) off();
  }
}
