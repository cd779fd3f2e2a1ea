// Test rig, loaded with `NODE_OPTIONS=--import=<this file>` into a `txa serve` process (and its
// worker threads): answers names listed in TEST_HOSTS (`name=ip,name=ip`) as /etc/hosts would,
// so a test can point a name at 127.0.0.1 without editing /etc/hosts. Other names resolve as usual.
import dns from 'node:dns';
import { isIP } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

const hosts = new Map(
  (process.env.TEST_HOSTS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=')),
);
const real = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'object' && options !== null ? options : {};
  const address = hosts.get(String(hostname).toLowerCase());
  if (address === undefined) return real.call(this, hostname, options, callback);
  const family = isIP(address);
  process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  return {};
};
syncBuiltinESMExports();
