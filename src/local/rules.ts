/** `txa rules apply` (docs/rules.md): a rules file run over the workspace's transactions. */
import type { Engine } from '../engine/engine.js';
import { applyRules, type ApplyOptions } from '../rules/apply.js';
import { readRulesFile } from '../rules/file.js';

export function rulesService(engine: Engine) {
  return {
    /** The file is read and checked (INVALID_RULES names the rule and key), then applied in one database transaction. */
    apply: (ws: string, path: string, opts: Pick<ApplyOptions, 'dryRun' | 'period'>) => applyRules(engine, ws, readRulesFile(path), opts),
  };
}

export type RulesService = ReturnType<typeof rulesService>;
