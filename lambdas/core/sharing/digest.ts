/**
 * A bundle's digest: SHA-256 of the envelope's bytes, as received. Web Crypto (a global in
 * every runtime this code runs on) keeps the core free of node: imports.
 */

/**
 * @example
 * await sha256Hex(new TextEncoder().encode('abc'));
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
