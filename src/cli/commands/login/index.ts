import type { Command } from 'commander';
import * as login from './login.js';

export function registerLogin(program: Command): void {
  login.register(program);
}
