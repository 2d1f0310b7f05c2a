/**
 * Request headers as the HTTP servers in front of us hand them over: Node lowercases names
 * (and gives an array for a repeated header), API Gateway lowercases them too, a test or a
 * person may not; names are case-insensitive (RFC 9110), so lookups ignore case.
 */
export type HookHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A header's one value; `missing` when absent or empty, `repeated` when sent more than once. */
export type HeaderLookup =
  | { readonly found: true; readonly value: string }
  | { readonly found: false; readonly why: 'missing' | 'repeated' };

export function headerValue(headers: HookHeaders, name: string): HeaderLookup {
  const wanted = name.toLowerCase();
  const values = Object.entries(headers)
    .filter(([key]) => key.toLowerCase() === wanted)
    .flatMap(([, value]) => (value === undefined ? [] : [value].flat()));
  if (values.length > 1) return { found: false, why: 'repeated' };
  const [value] = values;
  return value === undefined || value.trim() === ''
    ? { found: false, why: 'missing' }
    : { found: true, value: value.trim() };
}

/** The refusal reason for a header that is not there once. */
export function headerProblem(name: string, why: 'missing' | 'repeated'): string {
  return why === 'missing' ? `missing ${name} header` : `${name} header sent more than once`;
}
