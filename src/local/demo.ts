/** `txa demo`: the shipped demo workspaces (fixtures/demo), loaded into the local ledger idempotently. */
import type { Engine } from '../engine/engine.js';
import { loadDemo } from '../engine/demo.js';

export function demoService(engine: Engine) {
  return {
    /** Each demo workspace, main one first, with what this load imported and found already there. */
    load: () => loadDemo(engine),
  };
}

export type DemoService = ReturnType<typeof demoService>;
