// The start-up floor of any Node CLI on better-sqlite3 (issue 13, target 3): require the addon,
// open the ledger read-only and run the same SQL as `txa tx list` (the statements
// bench/tx-list-sql.mjs captured from the engine), fetching every row into JavaScript.
//   node bench/floor.cjs LEDGER bench/data/sql/a.sql
'use strict';
const { readFileSync } = require('node:fs');
const Database = require('better-sqlite3');

const [ledger, sqlFile] = process.argv.slice(2);
const db = new Database(ledger, { readonly: true });
// One statement per line, `BEGIN;` … `COMMIT;` around them, as tx-list-sql.mjs writes them.
for (const line of readFileSync(sqlFile, 'utf8').split('\n')) {
  const sql = line.trim();
  if (sql === '') continue;
  const stmt = db.prepare(sql);
  if (stmt.reader) stmt.all();
  else stmt.run();
}
db.close();
