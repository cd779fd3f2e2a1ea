/** `txa tokens` (docs/sync.md, "Spam"): the user's verdicts on tokens, for every row of them. */
import type { TokenRef } from '../core/token-ref.js';
import type { Engine } from '../engine/engine.js';
import { listMarks, markTokens } from '../engine/spam-tokens.js';

export function tokensService(engine: Engine) {
  return {
    /** `tokens` read by the command (core/token-ref.ts `parseTokenRef`) before the ledger was opened. */
    mark: (ws: string, tokens: TokenRef[], spam: boolean) => markTokens(engine, ws, tokens, spam),
    list: (ws: string) => listMarks(engine, ws),
  };
}

export type TokensService = ReturnType<typeof tokensService>;
