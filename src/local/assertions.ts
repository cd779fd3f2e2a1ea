/** Balance assertions of wallets (docs/check.md "Balance assertions"), which `txa check` verifies; local only. */
import type { Engine } from '../engine/engine.js';
import { assertBalance, listAssertions, removeAssertion, type AssertionInput } from '../engine/assertions.js';

export class AssertionsService {
  constructor(private readonly engine: Engine) {}

  assert(ws: string, walletId: string, input: AssertionInput) {
    return assertBalance(this.engine, ws, walletId, input);
  }

  /** Of the workspace, or of one wallet. */
  list(ws: string, walletId?: string) {
    return listAssertions(this.engine, ws, walletId);
  }

  remove(ws: string, id: string) {
    return removeAssertion(this.engine, ws, id);
  }
}
