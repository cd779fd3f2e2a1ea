#!/usr/bin/env node
// kill -9 fault injection with more rounds and rows than CI (default 40 rounds of 10,000 rows):
// see test/reliability/faults.test.ts.
//   CASES=100 ROWS=50000 SEED=7 node bench/faults.mjs
import { runSuite } from './fuzz-suite.mjs';

runSuite('test/reliability/faults.test.ts', 40, { TXA_FAULT_ROWS: process.env.ROWS ?? '10000' });
