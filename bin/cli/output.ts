import { isTerminal, terminalSafe } from './terminal-text.js';

/** Human text, or one JSON document for machines (`--json`): never both on stdout. */
export interface Output {
  readonly json: boolean;
  /** A line for people; suppressed under --json. */
  line(text: string): void;
  /** The command's result for machines; printed only under --json. */
  data(value: unknown): void;
  /** A file's text as it is (an artefact), made safe only on a terminal. */
  raw(text: string): void;
}

/**
 * Lines on a terminal are made safe to show (terminal-text.ts): they carry agents' and
 * gates' words. Piped, they go as they are.
 */
export function createOutput(
  json: boolean,
  stream: NodeJS.WritableStream = process.stdout,
): Output {
  const shown = isTerminal(stream) ? terminalSafe : (text: string) => text;
  return {
    json,
    line: (text) => {
      if (!json) stream.write(`${shown(text)}\n`);
    },
    raw: (text) => {
      stream.write(shown(text));
    },
    data: (value) => {
      if (json) stream.write(`${JSON.stringify(value, null, 2)}\n`);
    },
  };
}
