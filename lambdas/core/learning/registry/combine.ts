/**
 * The field rules two records of one pattern are combined by, within one run (two tasks
 * fixing the same issue) and across runs (merge.ts): sources per run, tags unioned,
 * averageIterations weighted by the tasks each side counted.
 */
import type { PatternSource } from '../../schemas/learning.js';
import type { PatternCandidate } from './candidate.js';
import { tagSet } from './history-facts.js';

/**
 * Sources with one entry per run: a run already present gets the other's iterations added.
 *
 * @example
 * unionSources([{ runId: 'r1', iterations: [2], … }], [{ runId: 'r1', iterations: [5], … }]);
 * // [{ runId: 'r1', iterations: [2, 5], … }]
 */
export function unionSources(
  kept: readonly PatternSource[],
  added: readonly PatternSource[],
): PatternSource[] {
  const byRun = new Map(kept.map((source) => [source.runId, source]));
  for (const source of added) {
    const seen = byRun.get(source.runId);
    byRun.set(
      source.runId,
      seen
        ? {
            ...seen,
            iterations: [...new Set([...seen.iterations, ...source.iterations])].sort(
              (a, b) => a - b,
            ),
          }
        : source,
    );
  }
  return [...byRun.values()];
}

/**
 * How many tasks an averageIterations was taken over: a success pattern's sources name one
 * passing iteration per task. A source without iterations (an imported one) counts once.
 */
export function sourceWeight(sources: readonly PatternSource[]): number {
  return sources.reduce((sum, source) => sum + Math.max(1, source.iterations.length), 0);
}

/**
 * The mean of two means, each weighted by its sources; one side missing gives the other.
 *
 * @example
 * weightedAverage({ average: 2, sources: twoTasks }, { average: 5, sources: oneTask }); // 3
 */
export function weightedAverage(
  a: { average: number | undefined; sources: readonly PatternSource[] },
  b: { average: number | undefined; sources: readonly PatternSource[] },
): number | undefined {
  if (a.average === undefined) return b.average;
  if (b.average === undefined) return a.average;
  const aWeight = sourceWeight(a.sources);
  const bWeight = sourceWeight(b.sources);
  return (a.average * aWeight + b.average * bWeight) / (aWeight + bWeight);
}

/**
 * One candidate per id from one run's candidates: the first keeps its title and body (the
 * earliest fix of the run), later ones add their iterations and tags.
 */
export function collapseById(candidates: readonly PatternCandidate[]): PatternCandidate[] {
  const byId = new Map<string, PatternCandidate>();
  for (const candidate of candidates) {
    const seen = byId.get(candidate.patternId);
    byId.set(
      candidate.patternId,
      seen
        ? {
            ...seen,
            tags: tagSet(seen.tags, candidate.tags),
            sources: unionSources(seen.sources, candidate.sources),
          }
        : candidate,
    );
  }
  return [...byId.values()];
}
