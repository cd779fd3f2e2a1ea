/** `txa rules apply` (docs/rules.md): a rules file run over the workspace's transactions. */
import type { Engine } from '../engine/engine.js';
import { applyRules, type ApplyOptions } from '../rules/apply.js';
import type { RulesFile } from '../rules/file.js';

export function rulesService(engine: Engine) {
  return {
    /** The file, read by the command (src/cli/rules-run.ts `readRules`), applied in one database transaction. */
    apply: (ws: string, file: RulesFile, opts: Pick<ApplyOptions, 'dryRun' | 'period'>) => applyRules(engine, ws, file, opts),
  };
}

export type RulesService = ReturnType<typeof rulesService>;
