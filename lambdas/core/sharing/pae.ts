/**
 * DSSE's pre-authentication encoding (protocol.md, "Signature Definition"): what is signed
 * is never the payload alone but its type and length with it, so that a signature over one
 * payload type cannot be passed off as one over another.
 */

const encoder = new TextEncoder();

/**
 * `DSSEv1 <len(type)> <type> <len(body)> <body>`, lengths in bytes as ASCII decimals
 * (UTF-8 bytes of the type, not its characters).
 *
 * @example
 * new TextDecoder().decode(pae('http://example.com/HelloWorld', encoder.encode('hello world')));
 * // 'DSSEv1 29 http://example.com/HelloWorld 11 hello world'
 */
export function pae(payloadType: string, body: Uint8Array): Uint8Array {
  const type = encoder.encode(payloadType);
  const head = encoder.encode(`DSSEv1 ${type.length} `);
  const middle = encoder.encode(` ${body.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + body.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(body, head.length + type.length + middle.length);
  return out;
}
