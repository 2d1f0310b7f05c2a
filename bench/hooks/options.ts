/** The hook intake bench's command line. */
import { parseArgs } from 'node:util';
import { integer } from '../orchestration/options.js';

export interface Options {
  /** Timed deliveries per path (HTTP and in-process each), per workload. */
  samples: number;
  /** Untimed deliveries of each path first, per workload: the JIT, the clients and the sockets warm up. */
  warmup: number;
  /** Deliveries in the concurrent burst, per path and workload. */
  burst: number;
  /** Deliveries the burst keeps in flight at once. */
  inFlight: number;
  json: boolean;
}

const USAGE =
  'usage: npm run bench:hooks -- [--samples N] [--warmup N] [--burst N] [--in-flight N] [--json]\n' +
  '  --samples N    timed deliveries per path and workload, at least 20 (default 200)\n' +
  '  --warmup N     untimed deliveries of every path first (default 50)\n' +
  '  --burst N      deliveries of the concurrent burst, per path and workload (default 200)\n' +
  '  --in-flight N  deliveries the burst keeps in flight at once (default 8)\n' +
  '  --json         one JSON document on stdout (use npm run -s to drop the banner)\n';

/** The options of this process's command line; `--help` prints the usage and exits. */
export function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      samples: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '50' },
      burst: { type: 'string', default: '200' },
      'in-flight': { type: 'string', default: '8' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  return {
    samples: integer(values.samples, 'samples', 20),
    warmup: integer(values.warmup, 'warmup', 0),
    burst: integer(values.burst, 'burst', 1),
    inFlight: integer(values['in-flight'], 'in-flight', 1),
    json: values.json,
  };
}
