/**
 * Bitcoin addresses and extended keys (src/core/bitcoin-keys.ts, docs/sync.md "Bitcoin"): every
 * mainnet script type accepted, the rest refused saying why; derivation checked against the
 * BIP 32 test vector 1 and the BIP 84 test vector.
 */
import { base58check, bech32 } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2';
import { HDKey } from '@scure/bip32';
import { p2pkh, p2sh, p2wpkh } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { bitcoinAddress, derivedAddress, extendedKey, isExtendedKey } from '../../src/core/bitcoin-keys.js';
import { TxaError } from '../../src/core/errors.js';

/** BIP 84's account key m/84'/0'/0' of "abandon … about" and its addresses (the BIP's own vector). */
const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_RECEIVE = ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'];
const BIP84_CHANGE_0 = 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el';

/** BIP 32 test vector 1: m/0H, m/0H/1, m/0H/1/2H/2 and m/0H/1/2H/2/1000000000 (public derivation only). */
const V1_M0H = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const V1_M0H_1 = 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
const V1_M0H_1_2H_2 = 'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
const V1_LAST = 'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';

const b58 = base58check(sha256);
/** The same key under other SLIP-132 version bytes (a zpub's payload as an xpub or a ypub). */
function reversioned(key: string, version: number): string {
  const bytes = b58.decode(key);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(0, version);
  return b58.encode(bytes);
}

function refusal(fn: () => unknown): TxaError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TxaError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('bitcoin addresses', () => {
  it('takes every mainnet script type, bech32 in lower case', () => {
    for (const a of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // P2PKH (the genesis coinbase)
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // P2SH
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // P2WPKH
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', // P2WSH
      'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr', // taproot (bech32m)
    ]) {
      expect(bitcoinAddress(a)).toBe(a);
    }
    expect(bitcoinAddress('BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  });

  it('refuses testnet, a bad checksum, another network and an EVM address, saying which', () => {
    const cases: [string, RegExp][] = [
      ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', /testnet address/],
      ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', /testnet address/],
      ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', /testnet address/],
      ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /bad checksum/],
      ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr', /bad checksum/],
      // Litecoin's P2PKH (version byte 48): a good checksum on another network.
      ['LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', /another network/],
      [`0x${'1'.repeat(40)}`, /not a Bitcoin mainnet address/],
      // A bech32 (v0) checksum on a v1 program: taproot must be bech32m.
      ['bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'.replace('bc1p', 'bc1z'), /bad checksum|not a Bitcoin/],
    ];
    for (const [a, why] of cases) {
      const e = refusal(() => bitcoinAddress(a));
      expect(e.code, a).toBe('INVALID_FIELD');
      expect(e.field).toBe('address');
      expect(e.message, a).toMatch(why);
    }
  });
});

describe('extended public keys', () => {
  it('BIP 84 test vector: the zpub derives its receive and change addresses', () => {
    const key = extendedKey(BIP84_ZPUB);
    expect(key.script).toBe('p2wpkh');
    expect(isExtendedKey(key.key)).toBe(true);
    expect([derivedAddress(key, 0, 0), derivedAddress(key, 0, 1)]).toEqual(BIP84_RECEIVE);
    expect(derivedAddress(key, 1, 0)).toBe(BIP84_CHANGE_0);
  });

  it('BIP 32 test vector 1: public derivation of m/0H to m/0H/1, and of m/0H/1/2H/2 to its child 1000000000', () => {
    expect(extendedKey(V1_M0H).hd.deriveChild(1).publicExtendedKey).toBe(V1_M0H_1);
    expect(extendedKey(V1_M0H_1_2H_2).hd.deriveChild(1_000_000_000).publicExtendedKey).toBe(V1_LAST);
    // The vector's identifier (hash160) of m/0H/1 is what m/0H/1's P2PKH address pays to.
    const address = p2pkh(HDKey.fromExtendedKey(V1_M0H_1).publicKey!).address!;
    expect(Buffer.from(b58.decode(address)).toString('hex')).toBe('00bef5a2f9a56a94aab12459f72ad9cf8cf19c7bbe');
  });

  it('the same key as xpub and ypub pays the same key hash as P2PKH and as P2SH-P2WPKH', () => {
    const x = extendedKey(reversioned(BIP84_ZPUB, 0x0488b21e));
    const y = extendedKey(reversioned(BIP84_ZPUB, 0x049d7cb2));
    expect(x.key.startsWith('xpub') && y.key.startsWith('ypub')).toBe(true);
    expect([x.script, y.script]).toEqual(['p2pkh', 'p2sh-p2wpkh']);
    const p2pkh = derivedAddress(x, 0, 0);
    expect(p2pkh).toMatch(/^1/);
    // The witness program of the BIP 84 address is the key hash the P2PKH address carries.
    const bip84Hash = Buffer.from(b58.decode(p2pkh).slice(1)).toString('hex');
    const program = Buffer.from(bech32.fromWords(bech32.decode(BIP84_RECEIVE[0] as `${string}1${string}`).words.slice(1))).toString('hex');
    expect(bip84Hash).toBe(program);
    expect(derivedAddress(y, 0, 0)).toMatch(/^3/);
    expect(derivedAddress(y, 0, 0)).not.toBe(derivedAddress(y, 0, 1));
  });

  it("each script type: the address encoded from the child key hash is @scure/btc-signer's payment of the child public key", () => {
    const payments = { p2pkh, 'p2sh-p2wpkh': (pub: Uint8Array) => p2sh(p2wpkh(pub)), p2wpkh } as const;
    for (const version of [0x0488b21e, 0x049d7cb2, 0x04b24746]) {
      const key = extendedKey(reversioned(BIP84_ZPUB, version));
      for (const chain of [0, 1] as const) {
        const branch = key.hd.deriveChild(chain);
        for (let i = 0; i < 25; i++) {
          expect(derivedAddress(key, chain, i, branch), `${key.script} ${chain}/${i}`).toBe(payments[key.script](branch.deriveChild(i).publicKey!).address);
        }
      }
    }
  });

  it('refuses a bad checksum, a testnet key, a private key and what is no key, as INVALID_FIELD xpub', () => {
    const typo = BIP84_ZPUB.slice(0, 40) + (BIP84_ZPUB[40] === 'a' ? 'b' : 'a') + BIP84_ZPUB.slice(41);
    const cases: [string, RegExp][] = [
      [typo, /bad checksum/],
      ['tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp', /testnet key/],
      ['xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi', /private key/],
      ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', /not an extended public key/],
    ];
    for (const [k, why] of cases) {
      const e = refusal(() => extendedKey(k));
      expect(e.code, k).toBe('INVALID_FIELD');
      expect(e.field).toBe('xpub');
      expect(e.message, k).toMatch(why);
    }
  });
});
