/**
 * The backlog measurement: the CPU time of scoring a whole backlog at once with
 * `evaluateBacklog` (what the evaluation steps and `ralph eval` run), in rounds, after a
 * warm-up round; and the unique detector alone beside an all-pairs comparison.
 */
import { evaluateBacklog } from '../../lambdas/core/cheap/evaluate-backlog.js';
import { findDuplicates, jaccard, wordSet } from '../../lambdas/core/cheap/qus/unique.js';
import type { CompiledPatterns } from '../../lambdas/core/cheap/types.js';
import type { Artefact, CheapModeResult } from '../../lambdas/core/schemas/evaluation.js';
import { median } from '../../lambdas/core/shared/stats.js';

/** Milliseconds of this process's CPU time (user + system), one entry per round. */
export interface CpuTime {
  roundsMs: number[];
  median: number;
  min: number;
  max: number;
}

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function cpuTime(rounds: number, work: () => void): CpuTime {
  work(); // warm-up: the first round also compiles the code it runs
  const roundsMs = Array.from({ length: rounds }, () => cpuMs(work));
  return {
    roundsMs,
    median: median(roundsMs) ?? Number.NaN,
    min: Math.min(...roundsMs),
    max: Math.max(...roundsMs),
  };
}

/** The whole backlog scored `rounds` times; `last` holds the results of one of them. */
export function backlogCpu(
  artefacts: readonly Artefact[],
  compiled: CompiledPatterns,
  rounds: number,
): { time: CpuTime; last: CheapModeResult[] } {
  let last: CheapModeResult[] = [];
  const time = cpuTime(rounds, () => {
    last = evaluateBacklog(artefacts, compiled);
  });
  return { time, last };
}

/** Each text's words as sorted ids, as the unique detector compares them. */
function wordIds(texts: readonly string[]): Int32Array[] {
  const ids = new Map<string, number>();
  return texts.map((text) =>
    Int32Array.from(
      wordSet(text).map((word) => {
        let id = ids.get(word);
        if (id === undefined) ids.set(word, (id = ids.size));
        return id;
      }),
    ).sort(),
  );
}

/** The indices with a near-duplicate, comparing every pair. */
function allPairs(texts: readonly string[], threshold: number): Set<number> {
  const tokens = wordIds(texts);
  const flagged = new Set<number>();
  for (let x = 0; x < tokens.length; x += 1)
    for (let y = x + 1; y < tokens.length; y += 1)
      if (jaccard(tokens[x]!, tokens[y]!) + 1e-12 >= threshold) flagged.add(x).add(y);
  return flagged;
}

export interface UniqueFigures {
  /** The unique detector (prefix filtering) on every story's text. */
  prefixFiltered: CpuTime;
  /** Every pair compared, on the first `subset` stories only. */
  allPairsSubset: CpuTime;
  subset: number;
  /** `allPairsSubset`'s median scaled by the number of pairs to the whole backlog. */
  allPairsExtrapolatedMs: number;
  /** Both find the same stories with a near-duplicate in the subset. */
  agree: boolean;
}

/**
 * The unique detector over whole story sentences beside the all-pairs comparison it
 * replaces, timed on a subset and scaled by pairs (n(n-1)/2) to the whole backlog.
 */
export function uniqueFigures(
  sentences: readonly string[],
  threshold: number,
  { subset, rounds }: { subset: number; rounds: number },
): UniqueFigures {
  const inputs = sentences.map((text, index) => ({ id: String(index), text }));
  const prefixFiltered = cpuTime(rounds, () => void findDuplicates(inputs, threshold));
  const part = sentences.slice(0, subset);
  let flagged = new Set<number>();
  const allPairsSubset = cpuTime(Math.min(rounds, 3), () => {
    flagged = allPairs(part, threshold);
  });
  const found = findDuplicates(inputs.slice(0, subset), threshold);
  const agree = found.size === flagged.size && [...found.keys()].every((key) => flagged.has(key));
  const n = sentences.length;
  const m = part.length;
  return {
    prefixFiltered,
    allPairsSubset,
    subset: m,
    allPairsExtrapolatedMs: (allPairsSubset.median * (n * (n - 1))) / (m * (m - 1)),
    agree,
  };
}
