/**
 * The lines of a tool's output, in the two views its readers need: as a terminal shows
 * them (summaries: a progress line rewritten with `\r` counts in its last state), and
 * every line (failures: what a later `\r` overwrote was still printed).
 */

/** A terminal control sequence (CSI): ESC [, parameters, intermediates, a final byte. */
// eslint-disable-next-line no-control-regex -- escape sequences are what this strips
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** CSI, or an operating system command (OSC: hyperlinks, window titles) up to BEL or ST. */
// eslint-disable-next-line no-control-regex -- escape sequences are what this strips
const CSI_OR_OSC = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * The text without terminal colour codes (compilers and test runners colour their output).
 *
 * @example
 * withoutColours('\u001b[31merror\u001b[39m') // 'error'
 */
export function withoutColours(text: string): string {
  return text.replace(CSI, '');
}

/**
 * The text without colour codes, its line breaks `\n` (a `\r` too counts as one).
 *
 * @example
 * stripAnsi('\u001b[31merror\u001b[39m\r\n') // 'error\n'
 */
export function stripAnsi(text: string): string {
  return withoutColours(text).replace(/\r\n?/g, '\n');
}

/** Every line of a text, colours and trailing spaces removed, `\r` taken for a line break. */
export function linesOf(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trimEnd());
}

/**
 * The output's lines as a terminal would show them: colour codes removed, and of a line
 * rewritten with `\r` only its last state.
 *
 * @example
 * terminalLines('Running 1/2\rRunning 2/2\nDone') // ['Running 2/2', 'Done']
 */
export function terminalLines(output: string): string[] {
  return output
    .replace(CSI_OR_OSC, '')
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    });
}

/** One output in both views, each computed once for all the readers. */
export interface OutputLines {
  /** {@link terminalLines}: where summaries are read. */
  readonly terminal: readonly string[];
  /** {@link linesOf}: where failures are read. */
  readonly all: readonly string[];
}

export function outputLines(output: string): OutputLines {
  return { terminal: terminalLines(output), all: linesOf(output) };
}
