/**
 * Per-artefact gap analysis: which artefacts both modes scored, and by how much they differ.
 * A failed judge evaluation is excluded, never scored 0.
 */
import { InvalidInputError } from '../errors.js';
import type { CheapModeResult, ExpensiveModeResult } from '../schemas/evaluation.js';

export type JudgeVerdict = Extract<ExpensiveModeResult, { status: 'ok' }>;
export type JudgeFailure = Extract<ExpensiveModeResult, { status: 'failed' }>;

/** One artefact scored by both modes. */
export interface ArtefactGap {
  artefactId: string;
  expensive: number;
  cheap: number;
  /** `expensive − cheap`: positive when the cheap mode under-scores. */
  gap: number;
  judge: JudgeVerdict;
  cheapResult: CheapModeResult;
}

export interface PairedResults {
  /** Artefacts with a judge `ok` result and a cheap result, sorted by id. */
  pairs: ArtefactGap[];
  /** Artefacts whose judge evaluation failed (sorted): excluded from every figure. */
  judgeFailed: JudgeFailure[];
  /** Judge `ok`, but the cheap mode produced no result (sorted ids). */
  missingCheap: string[];
  /** A cheap result with no judge result at all (sorted ids). */
  missingJudge: string[];
}

function indexById<T extends { artefactId: string }>(
  results: readonly T[],
  mode: string,
): Map<string, T> {
  const byId = new Map<string, T>();
  const duplicates = new Set<string>();
  for (const result of results) {
    if (byId.has(result.artefactId)) duplicates.add(result.artefactId);
    byId.set(result.artefactId, result);
  }
  if (duplicates.size > 0)
    throw new InvalidInputError(
      `${mode} results`,
      [...duplicates].sort().map((id) => `artefact ${id} has more than one result`),
    );
  return byId;
}

const byArtefactId = (a: { artefactId: string }, b: { artefactId: string }): number =>
  a.artefactId < b.artefactId ? -1 : a.artefactId > b.artefactId ? 1 : 0;

/**
 * Pairs the two modes' results by artefact id.
 *
 * @throws InvalidInputError when one mode has two results for the same artefact.
 * @example
 * const { pairs, judgeFailed } = pairResults(cheapResults, expensiveResults);
 * pairs[0]; // { artefactId: 'story_1', expensive: 4.5, cheap: 4.2, gap: 0.3, ... }
 */
export function pairResults(
  cheap: readonly CheapModeResult[],
  expensive: readonly ExpensiveModeResult[],
): PairedResults {
  const cheapById = indexById(cheap, 'cheap mode');
  const judgeById = indexById(expensive, 'expensive mode');

  const pairs: ArtefactGap[] = [];
  const judgeFailed: JudgeFailure[] = [];
  const missingCheap: string[] = [];
  for (const judge of judgeById.values()) {
    if (judge.status === 'failed') {
      judgeFailed.push(judge);
      continue;
    }
    const cheapResult = cheapById.get(judge.artefactId);
    if (!cheapResult) {
      missingCheap.push(judge.artefactId);
      continue;
    }
    pairs.push({
      artefactId: judge.artefactId,
      expensive: judge.gestalt,
      cheap: cheapResult.gestalt,
      gap: judge.gestalt - cheapResult.gestalt,
      judge,
      cheapResult,
    });
  }
  const missingJudge = [...cheapById.keys()].filter((id) => !judgeById.has(id));

  return {
    pairs: pairs.sort(byArtefactId),
    judgeFailed: judgeFailed.sort(byArtefactId),
    missingCheap: missingCheap.sort(),
    missingJudge: missingJudge.sort(),
  };
}
