#!/usr/bin/env node
// HTTP fuzz of `txa serve` with more cases than CI (default 5,000): see test/reliability/http-fuzz.test.ts.
//   CASES=20000 SEED=7 node bench/fuzz-http.mjs
import { runSuite } from './fuzz-suite.mjs';

runSuite('test/reliability/http-fuzz.test.ts', 5_000);
