// The page content of two PDFs (inflated streams that draw text) and the CPU time of deflating
// each at pdfkit's level 6, five alternating rounds: the floor of the output's cost, e.g. audit
// against detailed of the same rows (bench/RESULTS.md, session 6).
//   node bench/pdf-content-floor.mjs detailed.pdf audit.pdf
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
const content = (f) => {
  const buf = readFileSync(f);
  const out = [];
  let i = 0;
  while ((i = buf.indexOf('stream\n', i)) !== -1) {
    const end = buf.indexOf('\nendstream', i);
    if (end < 0) break;
    let d;
    try {
      d = zlib.inflateSync(buf.subarray(i + 7, end));
    } catch {
      d = null;
    }
    // biome-ignore lint/complexity/useOptionalChain: d is null or a string
    if (d && d.includes(' Tj')) out.push(d);
    i = end + 10;
  }
  return out;
};
const [a, b] = process.argv.slice(2).map(content);
const res = { a: [], b: [] };
for (let r = 0; r < 5; r++)
  for (const [k, chunks] of [
    ['a', a],
    ['b', b],
  ]) {
    const c = process.cpuUsage();
    for (const ch of chunks) zlib.deflateSync(ch);
    const u = process.cpuUsage(c);
    res[k].push((u.user + u.system) / 1000);
  }
const med = (x) => x.sort((p, q) => p - q)[2];
console.log(
  'streams',
  a.length,
  b.length,
  'MB',
  (a.reduce((s, c) => s + c.length, 0) / 1e6).toFixed(2),
  (b.reduce((s, c) => s + c.length, 0) / 1e6).toFixed(2),
  'deflate ms median',
  med(res.a).toFixed(0),
  med(res.b).toFixed(0),
  'ratio',
  (med(res.b) / med(res.a)).toFixed(2),
);
