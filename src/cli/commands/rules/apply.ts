/** `txa rules apply FILE [--dry-run] [--period P] [--json]` (CONTRACT §10, docs/rules.md). Local only. */
import type { Command } from 'commander';
import { action } from '../../run.js';
import { periodSeconds } from '../../period.js';
import { printRulesResult } from '../../rules-run.js';

export function registerApply(parent: Command): void {
  parent
    .command('apply')
    .description("apply a rules file (YAML or JSON) to the workspace's transactions, in one database transaction")
    .argument('<file>', 'the rules file (docs/rules.md)')
    .option('--dry-run', 'count and show what would change, write nothing')
    .option('--period <period>', 'only rows of YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd (default: all)')
    .addHelpText('after', '\nA second run changes nothing. A bad file is INVALID_RULES naming the rule and key (rules.2.match.chain); docs/rules.md.')
    .action(
      action<{ dryRun?: boolean; period?: string }>(async (ctx, o, [file]) => {
        const period = periodSeconds(o.period);
        const ws = ctx.workspace();
        const { readRulesFile } = await import('../../../rules/file.js');
        const rules = readRulesFile(file!);
        const local = await ctx.local('rules apply');
        const { applyRules } = await import('../../../rules/apply.js');
        const { samples, ...result } = applyRules(local.engine, ws, rules, { dryRun: o.dryRun, period });
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else printRulesResult(ctx.out, result, samples);
      }),
    );
}
