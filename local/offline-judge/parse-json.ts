/**
 * `text` parsed as JSON, or `fallback` when it is not JSON: the model double keeps a body
 * it cannot parse as the text it received, the offline judge treats it as missing.
 *
 * @example
 * parseJsonOr('{"a":1}', undefined); // { a: 1 }
 * parseJsonOr('not json', 'not json'); // 'not json'
 */
export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
