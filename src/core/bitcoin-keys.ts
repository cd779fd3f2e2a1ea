/**
 * Bitcoin addresses and extended public keys (docs/sync.md "Bitcoin"): which a wallet may be, and
 * the addresses an xpub/ypub/zpub stands for. Pure computation over well-kept libraries
 * (@scure/btc-signer for address encoding, @scure/bip32 for BIP 32 derivation, @scure/base for
 * base58check); no cryptography is written here. Only mainnet: a testnet address or key, a bad
 * checksum or a private key is INVALID_FIELD saying which.
 */
import { Address, NETWORK, OutScript, TEST_NETWORK, p2sh } from '@scure/btc-signer';
import { HDKey } from '@scure/bip32';
import { TxaError } from './errors.js';

const MAINNET = Address(NETWORK);
const TESTNET = Address(TEST_NETWORK);
const REGTEST = Address({ ...TEST_NETWORK, bech32: 'bcrt' });

const SCRIPT_TYPES = 'P2PKH 1…, P2SH 3…, bech32 bc1q… or taproot bc1p…';

/**
 * A mainnet address of any script type in its one written form (bech32 in lower case, as BIP 173
 * writes it), or INVALID_FIELD `address` saying what is wrong with it.
 */
export function bitcoinAddress(input: string): string {
  const a = input.trim();
  const bad = (why: string): never => {
    throw new TxaError('INVALID_FIELD', `address '${input}' ${why}`, { field: 'address' });
  };
  try {
    return MAINNET.encode(MAINNET.decode(a));
  } catch (err) {
    if (decodes(TESTNET, a) || decodes(REGTEST, a)) bad(`is a testnet address; txa syncs Bitcoin mainnet (${SCRIPT_TYPES})`);
    const message = String((err as Error).message);
    if (/checksum/i.test(message)) bad('has a bad checksum (a mistyped character?)');
    if (/prefix|version/i.test(message)) bad(`is an address of another network, not Bitcoin mainnet (${SCRIPT_TYPES})`);
    return bad(`is not a Bitcoin mainnet address (${SCRIPT_TYPES})`);
  }
}

function decodes(network: ReturnType<typeof Address>, a: string): boolean {
  try {
    network.decode(a);
    return true;
  } catch {
    return false;
  }
}

/** The script an extended key's addresses pay to, by its SLIP-132 prefix. */
export type KeyScript = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';

/** SLIP-132 version bytes of the mainnet public keys (and their private twins, which @scure/bip32 wants named too). */
const VERSIONS: Record<string, { script: KeyScript; public: number; private: number }> = {
  xpub: { script: 'p2pkh', public: 0x0488b21e, private: 0x0488ade4 },
  ypub: { script: 'p2sh-p2wpkh', public: 0x049d7cb2, private: 0x049d7878 },
  zpub: { script: 'p2wpkh', public: 0x04b24746, private: 0x04b2430c },
};
const PRIVATE = /^[xyztuvYZUV]prv/;
const TESTNET_PUBLIC = /^[tuvUV]pub/;

export interface ExtendedKey {
  /** The key as given (base58check is case-sensitive): what the wallet stores as its address. */
  key: string;
  script: KeyScript;
  hd: HDKey;
}

/** Whether a Bitcoin wallet's stored address is an extended key rather than one address. */
export const isExtendedKey = (address: string): boolean => /^[xyz]pub/.test(address);

/** An account-level xpub/ypub/zpub, or INVALID_FIELD `xpub` saying why not. */
export function extendedKey(input: string): ExtendedKey {
  const key = input.trim();
  const bad = (why: string): never => {
    throw new TxaError('INVALID_FIELD', `xpub ${why}`, { field: 'xpub' });
  };
  if (PRIVATE.test(key)) bad(`'${key.slice(0, 4)}…' is a private key: give the account's public key (xpub, ypub or zpub), never a private one`);
  if (TESTNET_PUBLIC.test(key)) bad(`'${key.slice(0, 12)}…' is a testnet key; txa syncs Bitcoin mainnet (xpub, ypub or zpub)`);
  if (/^[YZ]pub/.test(key)) bad(`'${key.slice(0, 12)}…' is a multisig key (Ypub/Zpub), which txa cannot derive addresses of; add the addresses instead`);
  const version = VERSIONS[key.slice(0, 4)];
  if (!version) return bad(`'${key.slice(0, 12)}…' is not an extended public key (xpub…, ypub… or zpub…)`);
  try {
    return { key, script: version.script, hd: HDKey.fromExtendedKey(key, { public: version.public, private: version.private }) };
  } catch (err) {
    const message = String((err as Error).message);
    return bad(/checksum/i.test(message) ? 'has a bad checksum (a mistyped character?)' : `is not a valid extended public key (${message})`);
  }
}

/** Receive (0) and change (1): the two chains of an account (BIP 44). */
export type KeyChain = 0 | 1;

/**
 * The address at `index` of `chain` below the account key, in the key's script type. The address
 * is encoded from the child key's hash160, which @scure/bip32 computes and keeps with every key it
 * derives (its identifier): p2wpkh(publicKey) would check the point again (a decompression, about a
 * third of a derivation) and hash it again, for the same address (bench/RESULTS.md "Session 13").
 */
export function derivedAddress(key: ExtendedKey, chain: KeyChain, index: number, branch = key.hd.deriveChild(chain)): string {
  const hash = branch.deriveChild(index).identifier;
  if (!hash) throw new TxaError('INTERNAL_ERROR', 'an extended public key derived no public key');
  if (key.script === 'p2pkh') return MAINNET.encode({ type: 'pkh', hash });
  if (key.script === 'p2wpkh') return MAINNET.encode({ type: 'wpkh', hash });
  return p2sh({ type: 'wpkh', script: OutScript.encode({ type: 'wpkh', hash }) }).address!;
}
