/** Text helpers shared by the failure parsers. */
import { errorSignature as historySignature } from '../control/history.js';

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

/**
 * The error's identity for "the same error again": the history's signature (numbers,
 * positions and ids normalised), one rule for the whole of loop control; '' for no error.
 */
export function errorSignature(text: string): string {
  return historySignature(text) ?? '';
}

/** The lines of a text, trailing spaces removed. */
export function linesOf(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trimEnd());
}
