/**
 * The identity of an error for "the same error again": one rule for the whole of loop
 * control (the history's signatures, retry classification, stagnation's repeated errors).
 */
import { stripAnsi } from './lines.js';

/** A line that reports a problem, in the output of compilers, test runners, linters and shells. */
const ERROR_LINE =
  /\b(error|errors|err|fail|failed|failure|fatal|exception|panic|panicked|assert\w*|cannot|unable|denied|not found|undefined|traceback)\b|[✗✘×]/i;
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_LITERAL = /\b0x[0-9a-f]+\b/gi;
/** Commit hashes, request and container ids: 7+ hex digits mixing digits and letters. */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi;
/** `file.ts:12:5` and `file.ts(12,5)`: where in a file, which moves with every edit. */
const LINE_COL = /(\.[A-Za-z0-9]+)(?::\d+(?::\d+)?|\(\d+(?:,\s*\d+)?\))/g;
/** A number on its own or with a unit, not one inside a name such as `TS2345` or `v18`. */
const NUMBER = /(?<![A-Za-z_\d])\d+(?:\.\d+)?/g;

/**
 * The error an iteration ended on, in a form that is equal when the error is the same: the
 * first line that reports a problem (else the first non-empty line), with colours stripped,
 * file positions, timestamps, hex ids and numbers replaced by placeholders, and whitespace
 * collapsed. `undefined` when there is no text.
 *
 * @example
 * errorSignature('src/a.ts:12:5 - error TS2345: Argument of type 3 ...');
 * // 'src/a.ts:<line> - error TS2345: Argument of type <n> ...'
 */
export function errorSignature(text: string, maxLength = 200): string | undefined {
  const lines = stripAnsi(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const line = lines.find((candidate) => ERROR_LINE.test(candidate)) ?? lines[0];
  if (line === undefined) return undefined;
  const signature = line
    .replace(ISO_TIME, '<time>')
    .replace(UUID, '<hex>')
    .replace(HEX_LITERAL, '<hex>')
    .replace(HEX_ID, '<hex>')
    .replace(LINE_COL, '$1:<line>')
    .replace(NUMBER, '<n>')
    .replace(/\s+/g, ' ');
  return signature.slice(0, maxLength);
}
