/**
 * Registry retrieval at an iteration's start: the run's learning snapshot loaded once, then
 * the top 5 patterns for each task's text and last error signature.
 *
 *   npm run bench:learning                       # table on stdout
 *   npm run -s bench:learning -- --json          # one JSON document on stdout
 *   npm run bench:learning -- --patterns 20000 --queries 5000
 *
 * Inputs are generated deterministically (learning/synthetic-registry.ts: a seeded PRNG,
 * tool error messages, Zipf-distributed words): a snapshot of N patterns as JSON text, as it
 * is read from the bucket, and the queries. Measured, in the same process:
 *
 *   load        JSON.parse + LearningSnapshotSchema validation + the index's build, --loads
 *               times (median and spread); the linear scan's build beside it
 *   top 5       each query on the minisearch index and on the linear scan (the BASELINE:
 *               every pattern scored by term overlap, learning/linear-scan.ts), alternating
 *               query by query after a warm-up pass; p50 and p95
 *   recall      both retrievers over the labelled tool-error fixture (real tsc, eslint,
 *               vitest and pytest output: test/fixtures/learning/): recall@5 and @1 with
 *               each case's error line, recall@5 with the loop's signature of the whole
 *               output, and recall@5 with the fixture's patterns among the N synthetic ones
 *
 * Target: top-5 p50 ≤ 5 ms after the snapshot is loaded. The load average is printed: on a
 * shared machine it explains most of the spread.
 */
import { minisearchRetriever } from '../lambdas/adapters/minisearch-retriever.js';
import { distinctSearchTerms } from '../lambdas/core/learning/search-terms.js';
import { LearningSnapshotSchema, type RegistryPattern } from '../lambdas/core/schemas/learning.js';
import type { PatternRetrieverFactory } from '../lambdas/learning-ports.js';
import { loadToolErrors, recallAt } from '../test/support/tool-errors.js';
import { linearScanRetriever } from './learning/linear-scan.js';
import { measureLoads, measureQueries, TOP_K } from './learning/measure.js';
import { parseOptions } from './learning/options.js';
import { learningReport, textLines, type Recall, type RecallFigures } from './learning/report.js';
import { makeQueries, makeSnapshot } from './learning/synthetic-registry.js';

const options = parseOptions();
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * recall@5 on the fixture: over its own registry, with each case's error line and with the
 * loop's signature; then with its patterns among the synthetic ones, which may be about the
 * same errors (so a lower bound of what a registry that large would find).
 */
function fixtureRecall(synthetic: readonly RegistryPattern[]): Recall {
  const fixture = loadToolErrors();
  const mixed = [...fixture.registry, ...synthetic];
  const figures = (factory: PatternRetrieverFactory): RecallFigures => {
    const own = factory(fixture.registry);
    return {
      errorLine: recallAt(own, fixture.cases, TOP_K, 'error'),
      errorLineAt1: recallAt(own, fixture.cases, 1, 'error'),
      loopSignature: recallAt(own, fixture.cases, TOP_K, 'loopSignature'),
      amongSynthetic: recallAt(factory(mixed), fixture.cases, TOP_K, 'error'),
    };
  };
  return {
    cases: fixture.cases.length,
    patterns: fixture.registry.length,
    index: figures(minisearchRetriever),
    linear: figures(linearScanRetriever),
  };
}

log(`generating ${options.patterns} patterns and ${options.queries} queries…`);
const snapshot = makeSnapshot(options.patterns, options.seed);
const text = JSON.stringify(snapshot);
const queries = makeQueries(options.queries, options.seed + 1);
log(`loading the snapshot ${options.loads} times…`);
const loaded = measureLoads(text, options.loads);
log('timing the queries…');
const queryTimes = measureQueries(loaded.index, loaded.linear, queries);

const report = learningReport(options, {
  snapshotBytes: Buffer.byteLength(text),
  averageQueryTerms:
    queries.reduce((sum, query) => sum + distinctSearchTerms(query).length, 0) / queries.length,
  load: loaded.times,
  queries: queryTimes,
  recall: fixtureRecall(LearningSnapshotSchema.parse(snapshot).patterns),
});

if (options.json) console.log(JSON.stringify(report, null, 2));
else for (const line of textLines(report)) console.log(line);
