/**
 * ECDSA on P-256 over a digest given as is, for the KMS stand-in: KMS signs a 32-byte
 * `DIGEST` without hashing it again, and node:crypto has no call that signs an unhashed
 * digest with an EC key (it always hashes). Plain BigInt arithmetic in affine coordinates:
 * slow for production, milliseconds for a test; node:crypto verifies what it makes.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const A = P - 3n;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G: Point = {
  x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
};

interface Point {
  x: bigint;
  y: bigint;
}

const mod = (value: bigint, m: bigint) => ((value % m) + m) % m;

/** The inverse modulo a prime, by Fermat: value^(m-2). */
function inverse(value: bigint, m: bigint): bigint {
  let result = 1n;
  let base = mod(value, m);
  for (let exponent = m - 2n; exponent > 0n; exponent >>= 1n) {
    if (exponent & 1n) result = (result * base) % m;
    base = (base * base) % m;
  }
  return result;
}

function add(p: Point | undefined, q: Point | undefined): Point | undefined {
  if (!p) return q;
  if (!q) return p;
  if (p.x === q.x && mod(p.y + q.y, P) === 0n) return undefined;
  const slope =
    p.x === q.x
      ? mod((3n * p.x * p.x + A) * inverse(2n * p.y, P), P)
      : mod((q.y - p.y) * inverse(q.x - p.x, P), P);
  const x = mod(slope * slope - p.x - q.x, P);
  return { x, y: mod(slope * (p.x - x) - p.y, P) };
}

function multiply(scalar: bigint, point: Point): Point | undefined {
  let result: Point | undefined;
  let addend: Point | undefined = point;
  for (let k = scalar; k > 0n; k >>= 1n) {
    if (k & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  return result;
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

/** A DER INTEGER: big-endian, minimal, with a 0 byte when the high bit is set. */
function derInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

export interface P256Key {
  /** SubjectPublicKeyInfo DER, what KMS `GetPublicKey` answers. */
  readonly publicKeyDer: Buffer;
  /** The ECDSA signature (DER) of a 32-byte digest, not hashed again. */
  signDigest(digest: Uint8Array): Buffer;
  readonly privateKey: KeyObject;
}

/** A fresh P-256 key pair that signs digests as KMS does. */
export function generateP256Key(): P256Key {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })).export({
    format: 'jwk',
  });
  const d = toBigInt(Buffer.from(jwk.d!, 'base64url'));
  return {
    privateKey,
    publicKeyDer: publicKey.export({ format: 'der', type: 'spki' }),
    signDigest(digest) {
      if (digest.length !== 32) throw new Error('a SHA-256 digest is 32 bytes');
      const z = toBigInt(digest);
      for (;;) {
        const k = mod(toBigInt(randomBytes(40)), N - 1n) + 1n;
        const r = mod(multiply(k, G)!.x, N);
        const s = mod(inverse(k, N) * (z + r * d), N);
        if (r === 0n || s === 0n) continue;
        const body = Buffer.concat([derInteger(r), derInteger(s)]);
        return Buffer.concat([Buffer.from([0x30, body.length]), body]);
      }
    },
  };
}
