/** The learning bench's command line. */
import { parseArgs } from 'node:util';
import { integer } from '../orchestration/options.js';

export interface Options {
  patterns: number;
  queries: number;
  /** Snapshot loads timed (each parses, validates and indexes the whole snapshot). */
  loads: number;
  seed: number;
  json: boolean;
}

const USAGE =
  'usage: npm run bench:learning -- [--patterns N] [--queries N] [--loads N] [--seed N] [--json]\n' +
  '  --patterns N  patterns in the synthetic registry (default 10000)\n' +
  '  --queries N   queries timed on each retriever, after as many warm-up queries (default 2000)\n' +
  '  --loads N     snapshot loads timed (default 5)\n' +
  '  --seed N      seed of the generated registry and queries (default 20261201)\n' +
  '  --json        one JSON document on stdout (use npm run -s to drop the banner)\n';

/** The options of this process's command line; `--help` prints the usage and exits. */
export function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      patterns: { type: 'string', default: '10000' },
      queries: { type: 'string', default: '2000' },
      loads: { type: 'string', default: '5' },
      seed: { type: 'string', default: '20261201' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  return {
    patterns: integer(values.patterns, 'patterns', 1),
    queries: integer(values.queries, 'queries', 1),
    loads: integer(values.loads, 'loads', 1),
    seed: integer(values.seed, 'seed', 0),
    json: values.json,
  };
}
