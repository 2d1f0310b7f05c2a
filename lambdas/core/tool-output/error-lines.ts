/**
 * The error lines of command output, as transcript analysis counts them: lines that
 * report an error in a tool family's own words (each family lists its own), or in the
 * words any program uses, normalised so that the same error seen twice is recognised.
 */
import { FAMILIES } from './families.js';
import { withoutColours } from './lines.js';

/** What any program may print: exceptions, `error:` lines, git's `fatal:`. */
const ANY_PROGRAM: readonly RegExp[] = [
  // Error: ..., TypeError: ..., AssertionError [ERR_ASSERTION]: ..., java.io.IOException: ...
  /^\s*(?:[A-Za-z_][\w.$]*)?(?:Error|Exception)(?:\s*\[[\w-]+\])?:\s*\S/,
  // error: ..., ERROR: ..., error[E0308]: ... (rustc, gcc, git, many CLIs)
  /^\s*(?:error|ERROR)(?:\[E\d+\])?:\s*\S/,
  /^\s*fatal: \S/,
];

const ERROR_LINE: readonly RegExp[] = [
  ...ANY_PROGRAM,
  ...FAMILIES.flatMap((family) => family.errorLines),
];

/**
 * An error line in one spelling, so the same error seen twice is recognised: colours and
 * tool markup removed, the agent's directory dropped from paths, positions, durations and
 * addresses replaced by placeholders, whitespace collapsed, cut at `maxLength` when given.
 *
 * @example
 * normaliseErrorLine('src/a.ts(3,7): error TS2322: Type...', { maxLength: 200 })
 * // 'src/a.ts(N,N): error TS2322: Type...'
 */
export function normaliseErrorLine(
  line: string,
  options: { maxLength?: number; cwd?: string } = {},
): string {
  let text = withoutColours(line).replace(/<\/?tool_use_error>/g, '');
  if (options.cwd) text = text.split(`${options.cwd.replace(/\/$/, '')}/`).join('');
  text = text
    .replace(/:\d+:\d+\b/g, ':N:N')
    .replace(/\(\d+,\s*\d+\)/g, '(N,N)')
    .replace(/:\d+\b(?=[\s)]|$)/g, ':N')
    .replace(/\bline \d+\b/gi, 'line N')
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, 'Nms')
    .replace(/\b0x[0-9a-f]+\b/gi, '0xN')
    .replace(/\s+/g, ' ')
    .trim();
  return options.maxLength !== undefined && text.length > options.maxLength
    ? `${text.slice(0, options.maxLength - 1)}…`
    : text;
}

/**
 * The error lines of a piece of output, normalised, each once. With `isError` (a tool
 * result marked as an error) and no error line, the first telling line stands for the
 * error: Claude Code prefixes a failed command's output with `Exit code N`, which says
 * nothing of its own.
 *
 * @example
 * errorLines('Exit code 1\nFAIL test/a.test.ts > adds\nAssertionError: expected 3 to be 4', { isError: true })
 * // ['FAIL test/a.test.ts > adds', 'AssertionError: expected 3 to be 4']
 */
export function errorLines(
  output: string,
  options: { isError: boolean; maxLength?: number; cwd?: string },
): string[] {
  const lines = output.replace(/<\/?tool_use_error>/g, '').split(/\r?\n/);
  const found = lines.filter((line) => ERROR_LINE.some((pattern) => pattern.test(line)));
  if (found.length === 0 && options.isError) {
    const telling = lines.find((line) => line.trim() !== '' && !/^\s*Exit code \d+\s*$/.test(line));
    const fallback = telling ?? lines.find((line) => line.trim() !== '');
    if (fallback !== undefined) found.push(fallback);
  }
  return [...new Set(found.map((line) => normaliseErrorLine(line, options)))].filter(
    (line) => line !== '',
  );
}
