/** Human text, or one JSON document for machines (`--json`): never both on stdout. */
export interface Output {
  readonly json: boolean;
  /** A line for people; suppressed under --json. */
  line(text: string): void;
  /** The command's result for machines; printed only under --json. */
  data(value: unknown): void;
}

export function createOutput(
  json: boolean,
  stream: NodeJS.WritableStream = process.stdout,
): Output {
  return {
    json,
    line: (text) => {
      if (!json) stream.write(`${text}\n`);
    },
    data: (value) => {
      if (json) stream.write(`${JSON.stringify(value, null, 2)}\n`);
    },
  };
}
