/** Balance assertions of wallets (docs/check.md "Balance assertions"), which `txa check` verifies; local only. */
import type { Engine } from '../engine/engine.js';
import { assertBalance, listAssertions, removeAssertion, type AssertionInput } from '../engine/assertions.js';

export function assertionsService(engine: Engine) {
  return {
    assert: (ws: string, walletId: string, input: AssertionInput) => assertBalance(engine, ws, walletId, input),
    /** Of the workspace, or of one wallet. */
    list: (ws: string, walletId?: string) => listAssertions(engine, ws, walletId),
    remove: (ws: string, id: string) => removeAssertion(engine, ws, id),
  };
}

export type AssertionsService = ReturnType<typeof assertionsService>;
