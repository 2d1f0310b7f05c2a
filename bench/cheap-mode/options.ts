/** The cheap-mode bench's command line. */
import { parseArgs } from 'node:util';

export interface Options {
  json: boolean;
  patterns: number;
  documents: number;
  rounds: number;
  minRoundMs: number;
  seed: number;
  /** Time the compiled matcher only (for profiling). */
  skipBaseline: boolean;
  /** Stories in the backlog scored at once (`evaluateBacklog`, and through the CLI). */
  backlog: number;
  /** Stories the all-pairs comparison runs on (scaled by pairs to the backlog). */
  allPairsSubset: number;
  /** Leave out the backlog's run through the CLI (a child process per run). */
  skipCli: boolean;
}

export function parseOptions(): Options {
  const { values: args } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      patterns: { type: 'string', default: '1000' },
      documents: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '7' },
      'min-ms': { type: 'string', default: '300' },
      seed: { type: 'string', default: '20260116' },
      'skip-baseline': { type: 'boolean', default: false },
      backlog: { type: 'string', default: '10000' },
      'all-pairs-subset': { type: 'string', default: '2000' },
      'skip-cli': { type: 'boolean', default: false },
    },
  });
  return {
    json: args.json,
    patterns: Number(args.patterns),
    documents: Number(args.documents),
    rounds: Number(args.rounds),
    minRoundMs: Number(args['min-ms']),
    seed: Number(args.seed),
    skipBaseline: args['skip-baseline'],
    backlog: Number(args.backlog),
    allPairsSubset: Number(args['all-pairs-subset']),
    skipCli: args['skip-cli'],
  };
}
