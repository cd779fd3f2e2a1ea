import type { Command } from 'commander';
import * as apply from './apply.js';

export function registerRules(program: Command): void {
  const rules = program.command('rules').description('rules as code: tag, annotate, mark spam or own transfers by matching rows (local only; docs/rules.md)');
  apply.register(rules);
}
