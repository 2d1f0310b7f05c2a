/** The Run API bench's command line. */
import { parseArgs } from 'node:util';
import { integer } from '../orchestration/options.js';

export interface Options {
  /** Timed calls per path (HTTP and in-process each), per route. */
  samples: number;
  /** Untimed calls of every path first: the JIT, the SDK clients and the sockets warm up. */
  warmup: number;
  /** Fresh `node` processes that import each bundle. */
  imports: number;
  json: boolean;
}

const USAGE =
  'usage: npm run bench:api -- [--samples N] [--warmup N] [--imports N] [--json]\n' +
  '  --samples N  timed calls per path and route, at least 20 (default 200)\n' +
  '  --warmup N   untimed calls of every path first (default 50)\n' +
  '  --imports N  fresh node processes importing each bundle (default 5)\n' +
  '  --json       one JSON document on stdout (use npm run -s to drop the banner)\n';

/** The options of this process's command line; `--help` prints the usage and exits. */
export function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      samples: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '50' },
      imports: { type: 'string', default: '5' },
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
    imports: integer(values.imports, 'imports', 1),
    json: values.json,
  };
}
