/**
 * How the offline judge turns its criteria into a judge answer: each criterion scored 1–5
 * with the notes its score rests on, the gestalt their mean (for a user story, at most its
 * QUS quality score, with the QUS verdicts alongside), and a reasoning that names the
 * stand-in and shows every criterion's working (the offline proposer reads those clauses,
 * `name N/5 (notes)`, back).
 */
import type { CriterionVerdict, JudgeAnswer } from '../../lambdas/core/schemas/evaluation.js';
import { clamp, roundTo } from '../../lambdas/core/shared/stats.js';
import { OFFLINE_JUDGE_LABEL } from './labels.js';

/** One rubric criterion as the offline judge scored it. */
export interface Criterion {
  name: string;
  score: number;
  /** What the score rests on; quoted phrases are what the proposer can learn from. */
  notes: string[];
}

/** A user story's QUS verdicts, and the criterion whose score caps the gestalt. */
export interface QusJudgement {
  verdicts: CriterionVerdict[];
  ceiling: Criterion;
}

/**
 * The judge answer for `criteria` about `subject` ("this user story").
 *
 * @example
 * answerFrom('this change', [{ name: 'tests', score: 4, notes: ['adds test cases'] }]).gestalt; // 4
 */
export function answerFrom(
  subject: string,
  criteria: Criterion[],
  qus?: QusJudgement,
): JudgeAnswer {
  const mean = clampScore(
    roundTo(criteria.reduce((total, criterion) => total + criterion.score, 0) / criteria.length, 1),
  );
  const gestalt = qus ? Math.min(mean, qus.ceiling.score) : mean;
  const held =
    gestalt < mean ? `, held to ${gestalt} (from ${mean}) by its ${qus?.ceiling.name} score` : '';
  const clauses = criteria.map(
    (criterion) => `${criterion.name} ${criterion.score}/5 (${criterion.notes.join(', ')})`,
  );
  return {
    gestalt,
    reasoning: `${OFFLINE_JUDGE_LABEL} scored ${subject} ${gestalt} as the mean of ${criteria.length} criteria${held}: ${clauses.join('; ')}.`,
    strengths: criteria
      .filter((criterion) => criterion.score >= 4)
      .map((criterion) => `${criterion.name}: ${criterion.notes.join(', ')}`),
    weaknesses: criteria
      .filter((criterion) => criterion.score <= 3)
      .map((criterion) => `${criterion.name}: ${criterion.notes.join(', ')}`),
    ...(qus ? { criteria: qus.verdicts } : {}),
  };
}

/** A score kept on the rubric's 1–5 scale. */
export function clampScore(score: number): number {
  return clamp(score, 1, 5);
}

/** A score on the 1–5 scale, rounded to a half point. */
export function clampHalf(score: number): number {
  return clampScore(Math.round(score * 2) / 2);
}
