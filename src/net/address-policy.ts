/**
 * Which IP addresses a call made for an API user may reach (SSRF, docs/server.md "Outgoing calls (SSRF guard)"): only public
 * unicast. IPv4 special-purpose ranges are refused; IPv6 is allowed only inside global unicast
 * 2000::/3 minus its special blocks, and the IPv6 forms that carry an IPv4 address (mapped
 * `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`)
 * are judged by that IPv4 address, so `[64:ff9b::127.0.0.1]` is loopback. IPv4-compatible
 * `::a.b.c.d` is deprecated (RFC 4291) and refused with the rest of `::/8`.
 */
import { BlockList, isIP } from 'node:net';

const PRIVATE_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3], // multicast, reserved 240/4, broadcast
] as const)
  PRIVATE_V4.addSubnet(net, bits, 'ipv4');

/** Inside 2000::/3: Teredo, benchmarking, ORCHID and other IETF assignments, documentation. */
const SPECIAL_V6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const)
  SPECIAL_V6.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit words of a valid IPv6 address (a zone index is dropped). */
function words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address stands for, if it is one of the embedding forms. */
function embeddedV4(w: number[]): string | null {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6]!, w[7]!); // mapped ::ffff:a.b.c.d
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6]!, w[7]!); // SIIT ::ffff:0:a.b.c.d
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6]!, w[7]!); // NAT64 64:ff9b::/96
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!); // 6to4
  return null;
}

/** True for an address a user's webhook must not reach; false for public ones and for non-IPs. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE_V4.check(address, 'ipv4');
  if (family !== 6) return false;
  const w = words(address);
  const inner = embeddedV4(w);
  if (inner !== null) return PRIVATE_V4.check(inner, 'ipv4');
  const globalUnicast = (w[0]! & 0xe000) === 0x2000;
  return !globalUnicast || SPECIAL_V6.check(address.replace(/%.*$/, ''), 'ipv6');
}
