/**
 * The words a registry pattern and a query are matched on: one tokenizer for both sides, so
 * that what a pattern was indexed under is what a task's text and error signature ask for.
 * Made for code-ish text: identifiers are split (camelCase, snake_case, paths), error codes
 * and lint rule names stay whole, and the placeholders of placeless signatures are dropped.
 */

/** `<n>`, `<file>`, `<line>`, `<hex>`, `<time>`, `<name>`: what a signature put in place of a detail. */
const PLACEHOLDER = /<[a-z]+>/g;
/** A run of word characters and the joiners inside names: `a.b`, `a-b`, `a/b`, `@scope/rule`. */
const CHUNK = /[@\w]+(?:[./-][@\w]+)*/g;
/** TS2345, E501, F401, PLR0913, SIM102: a code names one error kind, its parts name nothing. */
const ERROR_CODE = /^[a-z]{1,5}\d{2,5}$/i;
/** A lint rule: kebab-case in lower case, with an optional plugin (`@typescript-eslint/`). */
const LINT_RULE = /^(?:@?[a-z][\w-]*\/)?[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
/** Splits `toHaveBeenCalled`, `HTTPServer2` and `parse_args` into their words. */
const WORD_PARTS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;
/** Numbers shorter than this are counts and sizes; longer ones (404, 2345) can name something. */
const MIN_NUMBER_DIGITS = 3;

/**
 * Words too common to tell two patterns apart: English function words. Negations and the
 * words errors are made of stay (`not found`, `No module named`, `an 'any' type`, `timed out`).
 */
const STOP_WORDS = new Set(
  `
a about after all also an and are as at be been before but by can could did do does each
for from had has have he her his how if in into is it its just may more most must my of on
only or other our over should so some such than that the their them then there these they
this those to too up very was we were what when where which while who will with would you
your
`
    .trim()
    .split(/\s+/),
);

/**
 * The search terms of `text`, lower case, in order, repeats kept (a term's frequency counts
 * in BM25). An identifier gives itself whole and its words; an error code or a lint rule
 * gives itself whole (a rule also its words, and without its plugin); stop words, one-letter
 * words, short numbers and placeholders give nothing.
 *
 * @example
 * searchTerms("src/a.ts:<line> - error TS2345: Argument of type 'userId' is not assignable");
 * // ['src', 'ts', 'error', 'ts2345', 'argument', 'type', 'userid', 'user', 'id', 'not', 'assignable']
 * searchTerms('@typescript-eslint/no-unused-vars');
 * // ['@typescript-eslint/no-unused-vars', 'no-unused-vars', 'typescript', 'eslint', 'no', 'unused', 'vars']
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [chunk] of text.replace(PLACEHOLDER, ' ').matchAll(CHUNK)) {
    terms.push(...chunkTerms(chunk));
  }
  return terms.filter(isSearchable);
}

/** {@link searchTerms} without repeats: a query asks for each term once. */
export function distinctSearchTerms(text: string): string[] {
  return [...new Set(searchTerms(text))];
}

function chunkTerms(chunk: string): string[] {
  if (ERROR_CODE.test(chunk)) return [chunk.toLowerCase()];
  if (LINT_RULE.test(chunk)) {
    const bare = chunk.slice(chunk.lastIndexOf('/') + 1);
    const whole = bare === chunk ? [chunk] : [chunk, bare];
    return [...whole, ...chunk.split(/[@/_-]+/).flatMap(identifierTerms)];
  }
  return chunk.split(/[./@-]+/).flatMap(identifierTerms);
}

/**
 * `userId` → userid, user, id; `parse_args` → parse_args, parse, args; `__init__` → init;
 * `TS2345` → ts2345.
 */
function identifierTerms(identifier: string): string[] {
  if (ERROR_CODE.test(identifier)) return [identifier.toLowerCase()];
  const words = (identifier.match(WORD_PARTS) ?? []).map((word) => word.toLowerCase());
  return words.length > 1 ? [identifier.toLowerCase(), ...words] : words;
}

function isSearchable(term: string): boolean {
  if (term.length < 2 || STOP_WORDS.has(term)) return false;
  return !/^\d+$/.test(term) || term.length >= MIN_NUMBER_DIGITS;
}
