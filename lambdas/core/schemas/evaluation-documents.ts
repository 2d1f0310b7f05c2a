/**
 * What the evaluation steps hand each other through S3: the judge's verdict per artefact
 * (`expensive/{id}.json`), the cheap mode's results (`cheap.json`) and the analysis
 * (`gap.json`, which carries the calibration history to the next iteration).
 */
import { z } from 'zod';
import { CriterionAgreementSchema } from './analysis/criteria.js';
import { IterationMetricsSchema } from './analysis/metrics.js';
import {
  CheapModeResultSchema,
  ExpensiveModeResultSchema,
  JudgeAnswerSchema,
  ModelUsageSchema,
} from './evaluation.js';

const Attempts = z.number().int().nonnegative();

export const JudgeSampleSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    answer: JudgeAnswerSchema,
    attempts: Attempts,
    usage: ModelUsageSchema,
  }),
  z.object({
    status: z.literal('failed'),
    error: z.string(),
    attempts: Attempts,
    usage: ModelUsageSchema,
  }),
]);

/** One Map item's output: the verdict and the samples it was made from (a re-run reuses them). */
export const StoredJudgementSchema = z.object({
  model: z.string(),
  result: ExpensiveModeResultSchema,
  samples: z.array(JudgeSampleSchema),
  spread: z.number().optional(),
  highVariance: z.boolean(),
});
export type StoredJudgement = z.infer<typeof StoredJudgementSchema>;

export const CheapReportSchema = z.object({
  patternSetVersion: z.number().int().positive(),
  /** Set when the current version was unusable and an earlier one scored instead. */
  fallbackFrom: z.number().int().positive().optional(),
  fallbackReason: z.string().optional(),
  results: z.array(CheapModeResultSchema),
});
export type CheapReport = z.infer<typeof CheapReportSchema>;

export const GapReportSchema = z.object({
  iteration: z.number().int().positive(),
  /** The version that scored the iteration, and the one the next iteration will use. */
  patternSetVersion: z.number().int().positive(),
  nextPatternSetVersion: z.number().int().positive(),
  metrics: IterationMetricsSchema,
  /** The calibration history including this iteration (first entry and the last 49). */
  history: z.array(IterationMetricsSchema),
  /**
   * The judge's and the cheap mode's QUS defects compared per criterion on this iteration's
   * user stories (empty without per-criterion verdicts, and in reports stored before them).
   */
  criteria: z.array(CriterionAgreementSchema).default([]),
});
export type GapReport = z.infer<typeof GapReportSchema>;
