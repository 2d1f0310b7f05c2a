/**
 * What can be read from the words of a transcript: error lines in command output, questions
 * the agent put to the user (there is none to answer in autonomous mode), and assumptions it
 * said it made. Each rule is conservative: a missed question costs less than a false one.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Lines that report an error, in the common tools' own words. */
const ERROR_LINE: readonly RegExp[] = [
  // Error: ..., TypeError: ..., AssertionError [ERR_ASSERTION]: ..., java.io.IOException: ...
  /^\s*(?:[A-Za-z_][\w.$]*)?(?:Error|Exception)(?:\s*\[[\w-]+\])?:\s*\S/,
  // error: ..., ERROR: ..., error[E0308]: ... (rustc, gcc, git, many CLIs)
  /^\s*(?:error|ERROR)(?:\[E\d+\])?:\s*\S/,
  /\berror TS\d+:/,
  // FAIL src/a.test.ts > suite > case (vitest, jest); FAILED tests/x.py::y (pytest)
  /^\s*(?:FAIL|FAILED)\s+\S/,
  /^\s*--- FAIL: \S/,
  /^\s*\d+:\d+\s+error\s{2,}\S/,
  /panicked at /,
  /^\s*fatal: \S/,
  // pytest's assertion detail
  /^E\s{2,}\S/,
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
  let text = line.replace(ANSI, '').replace(/<\/?tool_use_error>/g, '');
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

/** Prose only: fenced code blocks and quoted lines are not the agent speaking. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

/** Sentences, each ending at `.`, `!` or `?` followed by space, or at a line break. */
export function sentences(text: string): string[] {
  return prose(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) =>
      sentence
        .trim()
        .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/[*_"')\]]+$/, '')
        .replace(/^[*_"'([]+/, '')
        .trim(),
    )
    .filter((sentence) => sentence !== '');
}

/** Addressed to the reader: "you", or asking leave ("Should I ...?", "Want me to ...?"). */
const ADDRESSED: readonly RegExp[] = [
  /\byou(?:r|rs|rself|'d|'re|'ll|'ve)?\b/i,
  /^(?:should|shall|may|can|could|would) I\b/i,
  /^(?:should|shall) we\b/i,
  /\b(?:want|like|prefer) me to\b/i,
];

/**
 * The questions the agent put to the user: sentences of its own prose that end with `?`
 * and address the reader. Self-talk ("Why does this fail?", "Do I need X?") is not one.
 *
 * @example
 * questionsTo('Tests pass. Should I also update the README?') // ['Should I also update the README?']
 * questionsTo('Why does this fail? Let me check.')           // []
 */
export function questionsTo(text: string): string[] {
  return sentences(text).filter(
    (sentence) => sentence.endsWith('?') && ADDRESSED.some((pattern) => pattern.test(sentence)),
  );
}

const ASSUMING =
  /\b(?:I(?:'ll| will| am|'m)?\s+(?:just\s+)?assum(?:e|ing)|assuming\s+(?:that|the|this|it|we|a|an)\b|presumably)\b/i;

/**
 * The assumptions the agent said it made: "I'll assume ...", "Assuming that ...",
 * "presumably ...".
 *
 * @example
 * assumptionsIn("The spec is vague. I'll assume dates are UTC.") // ["I'll assume dates are UTC."]
 */
export function assumptionsIn(text: string): string[] {
  return sentences(text).filter((sentence) => !sentence.endsWith('?') && ASSUMING.test(sentence));
}
