/** Runs `fn` and returns the TxaError it throws; fails the test when it throws nothing else or nothing. */
import { TxaError } from '../../src/core/errors.js';

export function txaErrorOf(fn: () => unknown): TxaError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TxaError) return err;
    throw err;
  }
  throw new Error('expected a TxaError, but nothing was thrown');
}

/** Awaits `p` and returns the TxaError it rejects with; fails the test when it resolves. */
export async function txaRejectionOf(p: Promise<unknown>): Promise<TxaError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TxaError) return err;
    throw err;
  }
  throw new Error('expected a TxaError rejection, but the promise resolved');
}
