// A Kraken ledgers CSV of N lines for import benchmarks (issue 21: a large exchange file in bounded
// memory): trade pairs USD↔ETH (six lines in ten), deposits and staking rewards, a minute apart.
//   node bench/gen-kraken.mjs N FILE    then: txa import FILE --wallet-id EXCHANGE_WALLET (a kraken account)
import { createWriteStream } from 'node:fs';
const n = Number(process.argv[2]);
const out = createWriteStream(process.argv[3]);
out.write('"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"\n');
const t0 = Date.parse('2023-01-01T00:00:00Z');
const ts = (i) => new Date(t0 + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
let i = 0;
while (i < n) {
  const k = i;
  if (k % 10 < 6) {
    out.write(`"L${k}-A","T${k}","${ts(k)}","trade","","currency","ZUSD",-1500.0000,3.9000,496.1000\n`);
    out.write(`"L${k}-B","T${k}","${ts(k)}","trade","","currency","XETH",1.0000000000,0.0000000000,1.0000000000\n`);
    i += 2;
  } else if (k % 10 < 8) {
    out.write(`"L${k}-D","D${k}","${ts(k)}","deposit","","currency","XETH",0.2500000000,0.0000000000,1.0000000000\n`);
    i++;
  } else {
    out.write(`"L${k}-S","S${k}","${ts(k)}","staking","","currency","XETH",0.0010000000,0.0000000000,1.0000000000\n`);
    i++;
  }
}
out.end();
