/**
 * A pattern's track record from one iteration. A pattern is **tested** each time it fires on
 * an artefact the judge scored (`ok`), and **correct** when its direction agrees with the
 * judge: a `good` pattern on an artefact the judge scored at or above `convergence.cheapThreshold`, a
 * `bad` pattern on one the judge scored below it. A pattern that does not fire is not tested
 * (accuracy is the precision of its firing). Firing on an artefact the judge failed on
 * counts in `timesFired` only. An unreliable judge is no ground truth: then only firing is
 * recorded.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { atLeast } from '../../shared/compare.js';
import { pairResults } from '../../gap/pairing.js';
import type { CheapModeResult, ExpensiveModeResult, Pattern } from '../../schemas/evaluation.js';

export interface OutcomeContext {
  iteration: number;
  /** From `assessJudgeReliability`: when false, tested/correct counts are left alone. */
  judgeReliable: boolean;
}

/**
 * Whether a pattern's direction agrees with the judge's score.
 *
 * @example
 * agreesWithJudge('good', 4.0, 4.0); // true
 * agreesWithJudge('bad', 4.0, 4.0); // false
 */
export function agreesWithJudge(
  type: Pattern['type'],
  judgeScore: number,
  cheapThreshold: number,
): boolean {
  const judgedGood = atLeast(judgeScore, cheapThreshold);
  return type === 'good' ? judgedGood : !judgedGood;
}

/**
 * The patterns with this iteration's firing, testing and correctness counted in.
 *
 * @example
 * const updated = recordPatternOutcomes(patterns, cheap, expensive, config, {
 *   iteration: 5,
 *   judgeReliable: true,
 * });
 */
export function recordPatternOutcomes(
  patterns: readonly Pattern[],
  cheap: readonly CheapModeResult[],
  expensive: readonly ExpensiveModeResult[],
  config: Pick<EvaluationConfig, 'convergence'>,
  context: OutcomeContext,
): Pattern[] {
  const judgeScores = new Map(
    pairResults(cheap, expensive).pairs.map((pair) => [pair.artefactId, pair.expensive]),
  );
  const tally = new Map<string, { fired: number; tested: number; correct: number }>();
  const byId = new Map(patterns.map((pattern) => [pattern.id, pattern]));

  for (const result of cheap)
    for (const id of new Set(result.patternsMatched)) {
      const pattern = byId.get(id);
      if (!pattern) continue;
      const counts = tally.get(id) ?? { fired: 0, tested: 0, correct: 0 };
      counts.fired += 1;
      const judgeScore = judgeScores.get(result.artefactId);
      if (context.judgeReliable && judgeScore !== undefined) {
        counts.tested += 1;
        if (agreesWithJudge(pattern.type, judgeScore, config.convergence.cheapThreshold))
          counts.correct += 1;
      }
      tally.set(id, counts);
    }

  return patterns.map((pattern) => {
    const counts = tally.get(pattern.id);
    if (!counts) return pattern;
    return {
      ...pattern,
      timesFired: pattern.timesFired + counts.fired,
      timesTested: pattern.timesTested + counts.tested,
      timesCorrect: pattern.timesCorrect + counts.correct,
      lastFiredIteration: Math.max(pattern.lastFiredIteration ?? 0, context.iteration),
    };
  });
}
