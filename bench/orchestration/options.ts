/** The orchestration bench's command line. */
import { parseArgs } from 'node:util';

/**
 * Iterations of a warm-up run on each measured stack, before its measured run: the JIT
 * has compiled the hot paths of the handlers, the SDK clients, the runner and the
 * emulators (whose worker thread is new with each stack) by then. A long run or a warm
 * Lambda is in that state; the warm-up run's own figures are printed as the cold stack.
 */
export const DEFAULT_WARMUP_ITERATIONS = 20;

export interface Options {
  runs: number;
  iterations: number;
  warmup: number;
  json: boolean;
  trace: boolean;
}

const USAGE =
  'usage: npm run bench:orchestration -- [--runs N] [--iterations N] [--warmup N] [--json] [--trace]\n' +
  '  --runs N        measured runs, iterations pooled (default 1)\n' +
  '  --iterations N  iterations per run, at least 20 (default 25)\n' +
  `  --warmup N      iterations of a warm-up run on each stack first (default ${DEFAULT_WARMUP_ITERATIONS})\n` +
  '  --trace         also print every call of one iteration, in order\n' +
  '  --json          one JSON document on stdout (use npm run -s to drop the banner)\n';

/** The options of this process's command line; `--help` prints the usage and exits. */
export function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      iterations: { type: 'string', default: '25' },
      warmup: { type: 'string', default: String(DEFAULT_WARMUP_ITERATIONS) },
      json: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  return {
    runs: integer(values.runs, 'runs', 1),
    iterations: integer(values.iterations, 'iterations', 20),
    warmup: integer(values.warmup, 'warmup', 0),
    json: values.json,
    trace: values.trace,
  };
}

/** `--name`'s value as a whole number ≥ `min`, or an error that says which flag is wrong. */
export function integer(text: string, name: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be an integer ≥ ${min}, got "${text}"`);
  return value;
}
