/** `txa tokens` (docs/sync.md, "Spam"): the user's verdicts on tokens, for every row of them. */
import type { Engine } from '../engine/engine.js';
import { listMarks, markTokens, parseTokenRef } from '../engine/spam-tokens.js';

export function tokensService(engine: Engine) {
  return {
    /** `refs` as the user wrote them (CHAIN:ADDRESS); a bad one is INVALID_FIELD before anything changes. */
    mark: (ws: string, refs: string[], spam: boolean) => markTokens(engine, ws, refs.map(parseTokenRef), spam),
    list: (ws: string) => listMarks(engine, ws),
  };
}

export type TokensService = ReturnType<typeof tokensService>;
