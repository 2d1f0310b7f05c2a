/**
 * One line that shows a long computation's progress in place (`\r`, then the line, then
 * erase to its end), on a terminal only: piped or under --json nothing is written, so that
 * a file or a CI log gets the result lines alone. Dim on a colour terminal, plain with
 * NO_COLOR.
 */

export interface ProgressLine {
  /** Replaces the line's text. */
  update(text: string): void;
  /** Erases the line, leaving the cursor where it began. */
  end(): void;
}

const ERASE_TO_END = '\u001b[K';
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';
/** Cut so that the line never wraps (a wrapped line cannot be rewritten in place). */
const MAX_CHARS = 100;

/**
 * A progress line on `stream`, or one that writes nothing when it is not a terminal or
 * `quiet` (--json).
 *
 * @example
 * const progress = progressLine({ quiet: output.json });
 * progress.update('fitting · round 1 · atomicScope');
 * progress.end();
 */
export function progressLine(
  options: { quiet?: boolean },
  stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): ProgressLine {
  if (options.quiet || stream.isTTY !== true)
    return { update: () => undefined, end: () => undefined };
  const colour = (env.NO_COLOR ?? '') === '';
  return {
    update: (text) => {
      const shown = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
      stream.write(`\r${colour ? `${DIM}${shown}${RESET}` : shown}${ERASE_TO_END}`);
    },
    end: () => {
      stream.write(`\r${ERASE_TO_END}`);
    },
  };
}
