// Writes, for each `tx list` case of bench/tx-list.sh, the exact SQL the engine runs for it
// (captured from the engine's own prepared statements, parameters inlined as literals) to
// bench/data/sql/<case>.sql, so the sqlite3 shell can run the same work on the same file.
//   node bench/tx-list-sql.mjs LEDGER WORKSPACE CASE='--flag value …' [CASE=…]
import { mkdirSync, writeFileSync } from 'node:fs';
import { LocalBackend } from '../dist/engine/local-backend.js';

const [ledger, workspace, ...cases] = process.argv.slice(2);
if (!ledger || !workspace || cases.length === 0) {
  console.error("usage: node bench/tx-list-sql.mjs LEDGER WORKSPACE name='--chain ethereum …' …");
  process.exit(2);
}

/** `--min-amount 5` → { min_amount: '5' }: the query string `tx list` builds from its flags. */
function queryOf(flags) {
  const words = flags.split(/\s+/).filter(Boolean);
  const query = { workspace_id: workspace };
  for (let i = 0; i < words.length; i += 2) query[words[i].replace(/^--/, '').replaceAll('-', '_')] = words[i + 1];
  return query;
}

const literal = (v) => (v === null || v === undefined ? 'NULL' : typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v));
const inline = (sql, args) => {
  let i = 0;
  return sql
    .replace(/\?/g, () => literal(args[i++]))
    .replace(/\s+/g, ' ')
    .trim();
};

const backend = LocalBackend.open(ledger);
const db = backend.engine.db;
const captured = [];
const prepare = db.prepare.bind(db);
db.prepare = (sql) => {
  const stmt = prepare(sql);
  for (const method of ['all', 'get', 'iterate', 'run']) {
    const original = stmt[method].bind(stmt);
    stmt[method] = (...args) => {
      captured.push(`${inline(sql, args.flat())};`);
      return original(...args);
    };
  }
  return stmt;
};

mkdirSync('bench/data/sql', { recursive: true });
for (const c of cases) {
  const [name, flags] = [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)];
  captured.length = 0;
  const page = await backend.listTransactions(workspace, queryOf(flags));
  // The engine reads the page, count and summary in one read transaction; so does the shell.
  writeFileSync(`bench/data/sql/${name}.sql`, ['BEGIN;', ...captured, 'COMMIT;', ''].join('\n'));
  console.error(`${name}: ${captured.length} statements, ${page.pagination.total} matching rows → bench/data/sql/${name}.sql`);
}
await backend.close();
