/** Matching own transfers over the whole ledger (docs/accounting.md "Own transfers"), as an import does: the API matches one pair at a time. */
import type { Engine } from '../engine/engine.js';
import { autoMatch } from '../engine/transfers.js';

export function transfersService(engine: Engine) {
  return {
    /** The number of legs matched, in one write. */
    autoMatch: (ws: string): number => engine.write(() => autoMatch(engine, ws)),
  };
}

export type TransfersService = ReturnType<typeof transfersService>;
