/** Text helpers shared by the failure parsers. */

// Built from a char code: a control character in a regex literal is a lint error.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

/**
 * The text without terminal colour codes (compilers and test runners colour their output).
 *
 * @example
 * stripAnsi('\u001b[31merror\u001b[39m') // 'error'
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n');
}

const ERROR_LIKE = /error|fail|exception|panic|not ok|cannot|undefined|[×✕✖]/i;

/**
 * What makes two failures "the same error": the first error-like line, lower-cased, with
 * every number replaced (line and column numbers move as the agent edits) and spaces
 * collapsed. Empty for a text with no content.
 *
 * @example
 * errorSignature('src/a.ts(12,5): error TS2322: x') === errorSignature('src/a.ts(14,9): error TS2322: x') // true
 */
export function errorSignature(text: string): string {
  const lines = stripAnsi(text)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const primary = lines.find((line) => ERROR_LIKE.test(line)) ?? lines[0] ?? '';
  return primary.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').slice(0, 200);
}

/** The lines of a text, trailing spaces removed. */
export function linesOf(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trimEnd());
}
