#!/usr/bin/env node
// CLI fuzz of `bin/txa` with more cases than CI (default 1,500): see test/reliability/cli-fuzz.test.ts.
//   CASES=5000 SEED=7 node bench/fuzz-cli.mjs
import { runSuite } from './fuzz-suite.mjs';

runSuite('test/reliability/cli-fuzz.test.ts', 1_500);
