/**
 * The DSSE envelope of shared bundles: the PAE against the specification's vectors (its
 * ECDSA P-256 example signature verifies over our encoding, through the same check every
 * bundle goes through), and opening an envelope: every refusal before the payload is read.
 */
import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import { envelopeOf, openEnvelope } from '../../lambdas/core/sharing/envelope.js';
import { pae } from '../../lambdas/core/sharing/pae.js';
import { SHARE_PAYLOAD_TYPE } from '../../lambdas/core/schemas/sharing.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (value: unknown) => utf8(JSON.stringify(value));

/** DSSE protocol.md "Test Vectors": ECDSA P-256, SHA-256, r‖s signature (RFC 6979). */
const SPEC = {
  payloadType: 'http://example.com/HelloWorld',
  body: 'hello world',
  pae: 'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
  x: 46950820868899156662930047687818585632848591499744589407958293238635476079160n,
  y: 5640078356564379163099075877009565129882514886557779369047442380624545832820n,
  sig: 'A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA==',
};

/** The in-toto statement of the DSSE repository's testvectors/vectors.json. */
const STATEMENT = '{"_type":"https://in-toto.io/Statement/v1"}';

const base64url32 = (n: bigint) =>
  Buffer.from(n.toString(16).padStart(64, '0'), 'hex').toString('base64url');

/** A raw r‖s ECDSA signature as DER (what KMS returns and our check reads). */
function derOf(raw: Uint8Array): Uint8Array {
  const integer = (half: Uint8Array) => {
    let bytes = [...half];
    while (bytes.length > 1 && bytes[0] === 0 && bytes[1]! < 0x80) bytes = bytes.slice(1);
    if (bytes[0]! >= 0x80) bytes = [0, ...bytes];
    return [0x02, bytes.length, ...bytes];
  };
  const body = [...integer(raw.subarray(0, 32)), ...integer(raw.subarray(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}

describe('Function: pae', () => {
  it("encodes the specification's example exactly", () => {
    expect(new TextDecoder().decode(pae(SPEC.payloadType, utf8(SPEC.body)))).toBe(SPEC.pae);
  });

  it.each([
    [
      'a JSON statement',
      'application/vnd.in-toto+json',
      utf8(STATEMENT),
      '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    ],
    [
      'a type of non-ASCII characters, its length in bytes',
      'application/vnd.exämple+json',
      utf8(STATEMENT),
      '445353457631203239206170706c69636174696f6e2f766e642e6578c3a46d706c652b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    ],
    [
      'an empty body, with its trailing space',
      'application/vnd.in-toto+json',
      new Uint8Array(),
      '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203020',
    ],
    [
      'binary bytes as they are',
      'application/vnd.in-toto+json',
      new Uint8Array(Buffer.from('-_-_Pj8=', 'base64url')),
      '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203520fbffbf3e3f',
    ],
  ])('matches the DSSE test vector for %s', (_name, type, body, expected) => {
    expect(hex(pae(type, body))).toBe(expected);
  });

  it("makes the bytes the specification's ECDSA P-256 signature holds for, through our check", () => {
    // Prepare
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: base64url32(SPEC.x), y: base64url32(SPEC.y) },
      format: 'jwk',
    });
    const spki = new Uint8Array(key.export({ type: 'spki', format: 'der' }));
    const signature = derOf(new Uint8Array(Buffer.from(SPEC.sig, 'base64')));
    const message = pae(SPEC.payloadType, utf8(SPEC.body));

    // Act / Assess
    expect(nodeSignatureCheck.verify(spki, message, signature)).toBe(true);
    expect(
      nodeSignatureCheck.verify(spki, pae(SPEC.payloadType, utf8('hello World')), signature),
    ).toBe(false);
    expect(nodeSignatureCheck.verify(spki, message, utf8('not DER'))).toBe(false);
  });
});

describe('Function: openEnvelope', () => {
  const payload = utf8('{"format":"ralph-pattern-bundle"}');
  const signed = envelopeOf(payload, { keyId: 'local:abc', signature: utf8('signature') });

  it('opens what envelopeOf made: the payload back, and the PAE its signatures cover', () => {
    // Act
    const opened = openEnvelope(bytesOf(signed));

    // Assess
    expect(opened).toMatchObject({ ok: true, payload, signed: pae(SHARE_PAYLOAD_TYPE, payload) });
    expect(signed.signatures).toEqual([{ keyid: 'local:abc', sig: 'c2lnbmF0dXJl' }]);
  });

  it('reads URL-safe base64 as DSSE asks of verifiers', () => {
    // Prepare
    const binary = new Uint8Array([0xfb, 0xff, 0xbf, 0x3e, 0x3f]);
    const urlSafe = { ...envelopeOf(binary), signatures: [{ keyid: 'k', sig: '-_-_' }] };

    // Act
    const opened = openEnvelope(bytesOf({ ...urlSafe, payload: '-_-_Pj8=' }));

    // Assess
    expect(opened).toMatchObject({ ok: true, payload: binary });
  });

  it.each([
    [
      'bytes that are not UTF-8',
      new Uint8Array([0xff, 0xfe, 0x7b]),
      'malformed',
      /not a JSON DSSE envelope/,
    ],
    ['text that is not JSON', utf8('{"payloadType":'), 'malformed', /not a JSON DSSE envelope/],
    [
      'an envelope with a field misspelt',
      bytesOf({ ...signed, signatures: [{ keyId: 'local:abc', sig: 'c2ln' }] }),
      'malformed',
      /signatures\[0\]\.keyId: unknown key — did you mean keyid\?/,
    ],
    [
      'a payload not in base64',
      bytesOf({ ...signed, payload: '{"patterns":[]}' }),
      'malformed',
      /payload: /,
    ],
    [
      'another payload type',
      bytesOf({ ...signed, payloadType: 'application/vnd.in-toto+json' }),
      'wrong_payload_type',
      /"application\/vnd.in-toto\+json", not application\/vnd.ralph-cloud/,
    ],
    ['no signature', bytesOf({ ...signed, signatures: [] }), 'unsigned', /carries no signature/],
  ])('refuses %s', (_name, bytes, reason, detail) => {
    // Act
    const opened = openEnvelope(bytes);

    // Assess
    expect(opened).toMatchObject({ ok: false, reason });
    expect(opened.ok ? '' : opened.detail).toMatch(detail);
  });
});
