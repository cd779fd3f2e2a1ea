// Test rig, loaded with `NODE_OPTIONS=--require=<this file>` into a `txa` process: at exit, writes
// the paths of every CommonJS module the process required (packages included) to the file named
// by TXA_TEST_LOADED, one a line, so a test can tell what a command's read path pulls in.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => writeFileSync(process.env.TXA_TEST_LOADED, Object.keys(require.cache).join('\n')));
