/**
 * The learning bench's timings: loading a snapshot (JSON parse, zod validation, index
 * build), and top-5 retrieval query by query, the index and the linear scan alternating so
 * that whatever drifts during the run (the garbage collector, the other core's load) falls
 * on both alike.
 */
import { minisearchRetriever } from '../../lambdas/adapters/minisearch-retriever.js';
import { LearningSnapshotSchema } from '../../lambdas/core/schemas/learning.js';
import type { PatternRetriever, RetrievedPattern } from '../../lambdas/learning-ports.js';
import { linearScanRetriever } from './linear-scan.js';

export const TOP_K = 5;

export interface LoadTimes {
  parseMs: number[];
  validateMs: number[];
  indexMs: number[];
  /** parse + validate + index: from the snapshot's text to a retriever. */
  totalMs: number[];
  /** The linear scan's build (each pattern's terms), from the validated patterns. */
  linearBuildMs: number[];
}

const elapsed = <T>(work: () => T): [T, number] => {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
};

/** `loads` times: the snapshot's text to both retrievers; returns the last ones built. */
export function measureLoads(
  text: string,
  loads: number,
): { times: LoadTimes; index: PatternRetriever; linear: PatternRetriever } {
  const times: LoadTimes = {
    parseMs: [],
    validateMs: [],
    indexMs: [],
    totalMs: [],
    linearBuildMs: [],
  };
  let built: { index: PatternRetriever; linear: PatternRetriever } | undefined;
  for (let load = 0; load < loads; load += 1) {
    const [json, parseMs] = elapsed(() => JSON.parse(text) as unknown);
    const [snapshot, validateMs] = elapsed(() => LearningSnapshotSchema.parse(json));
    const [index, indexMs] = elapsed(() => minisearchRetriever(snapshot.patterns));
    const [linear, linearBuildMs] = elapsed(() => linearScanRetriever(snapshot.patterns));
    times.parseMs.push(parseMs);
    times.validateMs.push(validateMs);
    times.indexMs.push(indexMs);
    times.totalMs.push(parseMs + validateMs + indexMs);
    times.linearBuildMs.push(linearBuildMs);
    built = { index, linear };
  }
  return { times, ...built! };
}

export interface QueryTimes {
  indexMs: number[];
  linearMs: number[];
  /** Of the index's top 5, how many the linear scan also returned, on average. */
  sharedTop: number;
}

type Timed = [found: RetrievedPattern[], ms: number];

/** Each query on both retrievers, alternating which goes first; a warm-up pass first. */
export function measureQueries(
  index: PatternRetriever,
  linear: PatternRetriever,
  queries: readonly string[],
): QueryTimes {
  for (const query of queries) {
    index.search(query, TOP_K);
    linear.search(query, TOP_K);
  }
  const times: QueryTimes = { indexMs: [], linearMs: [], sharedTop: 0 };
  let shared = 0;
  queries.forEach((query, position) => {
    const timeIndex = (): Timed => elapsed(() => index.search(query, TOP_K));
    const timeLinear = (): Timed => elapsed(() => linear.search(query, TOP_K));
    let byIndex: Timed;
    let byLinear: Timed;
    if (position % 2 === 0) [byIndex, byLinear] = [timeIndex(), timeLinear()];
    else [byLinear, byIndex] = [timeLinear(), timeIndex()];
    times.indexMs.push(byIndex[1]);
    times.linearMs.push(byLinear[1]);
    const fromLinear = new Set(byLinear[0].map((found) => found.pattern));
    shared += byIndex[0].filter((found) => fromLinear.has(found.pattern)).length;
  });
  times.sharedTop = shared / queries.length;
  return times;
}
