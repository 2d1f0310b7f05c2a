/** Text helpers shared by the failure parsers. */

/** A terminal control sequence (CSI): ESC [, parameters, intermediates, a final byte. */
// Escape sequences are what this strips, so the control character is the point.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * The text without terminal colour codes (compilers and test runners colour their output).
 *
 * @example
 * stripAnsi('\u001b[31merror\u001b[39m') // 'error'
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n');
}

/** The lines of a text, trailing spaces removed. */
export function linesOf(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trimEnd());
}
