/** `txa check` (docs/check.md): is the ledger ready to report for a period? */
import type { CheckKind } from '../core/check-kinds.js';
import type { Engine } from '../engine/engine.js';
import { runAllChecks, type Period } from '../checks/index.js';

export function checksService(engine: Engine) {
  return {
    /** The findings of every kind but the allowed ones (which are not run). */
    run: (ws: string, period: Period, allow: readonly CheckKind[]) => runAllChecks(engine, ws, period, allow),
  };
}

export type ChecksService = ReturnType<typeof checksService>;
