/**
 * Valid dual-mode evaluation objects for tests: patterns, both modes' results and user
 * stories. Each factory parses its result with the real schema, so an override that breaks
 * the schema fails at the factory with the zod path. Overrides are merged shallowly over
 * the defaults and may use schema input forms.
 */
import {
  CheapModeResultSchema,
  DocumentArtefactSchema,
  ExpensiveModeResultSchema,
  PatternSchema,
  StoryDocumentSchema,
  type CheapModeResult,
  type CriterionVerdict,
  type DocumentArtefact,
  type ModelUsage,
  type Pattern,
  type StoryDocument,
} from '../../lambdas/core/schemas/evaluation.js';
import { STORY_LEVEL_CRITERIA, type StoryLevelCriterion } from '../../lambdas/core/schemas/qus.js';
import type { z } from 'zod';

type Overrides<S extends z.ZodType> = Partial<z.input<S>>;

const [JudgedResultSchema, FailedResultSchema] = ExpensiveModeResultSchema.options;
export type JudgedResult = z.infer<typeof JudgedResultSchema>;
export type FailedResult = z.infer<typeof FailedResultSchema>;

/** A cheap model call's usage. */
export const TEST_USAGE: ModelUsage = { inputTokens: 1, outputTokens: 1, costUsd: 0 };

/** Every heuristic reason a well-formed user story earns in the cheap mode. */
export const GOOD_STORY_REASONS = [
  'good_title',
  'good_ac',
  'good_tech',
  'clear_user_value',
  'appropriate_scope',
];

/**
 * @example
 * const vague = makePattern({ id: 'p_vague', type: 'bad', keywords: ['vague'] });
 */
export function makePattern(overrides: Overrides<typeof PatternSchema> = {}): Pattern {
  return PatternSchema.parse({
    id: 'p_001',
    type: 'good',
    description: '',
    source: 'test',
    discoveredAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

export function makeCheapResult(
  overrides: Overrides<typeof CheapModeResultSchema> = {},
): CheapModeResult {
  return CheapModeResultSchema.parse({
    artefactId: 'story_1',
    gestalt: 3,
    rawScore: 2,
    reasons: [],
    patternsMatched: [],
    patternsMissed: [],
    ...overrides,
  });
}

/** An expensive-mode result the judge scored (`status: 'ok'`). */
export function makeJudgedResult(
  overrides: Overrides<typeof JudgedResultSchema> = {},
): JudgedResult {
  return JudgedResultSchema.parse({
    status: 'ok',
    artefactId: 'story_1',
    gestalt: 3,
    reasoning: 'r',
    strengths: [],
    weaknesses: [],
    attempts: 1,
    usage: TEST_USAGE,
    ...overrides,
  });
}

/** An expensive-mode result the judge failed to score (`status: 'failed'`). */
export function makeFailedResult(
  overrides: Overrides<typeof FailedResultSchema> = {},
): FailedResult {
  return FailedResultSchema.parse({
    status: 'failed',
    artefactId: 'story_1',
    error: 'RATE_LIMIT_EXCEEDED',
    attempts: 3,
    usage: TEST_USAGE,
    ...overrides,
  });
}

/** A well-formed user story (no QUS defect, a named pain) the offline judge scores high. */
export const GOOD_STORY: StoryDocument = StoryDocumentSchema.parse({
  id: 'story_good',
  title: 'Export invoices as CSV',
  description:
    'As an accountant, I want to export the invoices of a month as one CSV file, so that I am no longer frustrated when I copy invoices by hand into the ledger.',
  acceptance_criteria: [
    'Clicking Export downloads a CSV with one row per invoice',
    'The CSV contains number, date, customer and total columns',
    'Given no invoices, then the page shows an empty-state message',
  ],
  technical_area: 'packages/billing',
  services: ['billing'],
  source_conversations: [],
});

/** A user story: GOOD_STORY with overrides. */
export function makeStory(overrides: Overrides<typeof StoryDocumentSchema> = {}): StoryDocument {
  return StoryDocumentSchema.parse({ ...GOOD_STORY, ...overrides });
}

/** The document artefact carrying a user story (its id is the story's). */
export function storyArtefact(story: StoryDocument): DocumentArtefact {
  return DocumentArtefactSchema.parse({
    kind: 'document',
    id: story.id,
    documentType: 'user_story',
    content: story,
  });
}

/**
 * A judge's QUS verdicts on one story: every criterion the judge is asked passes, except
 * those given here with their evidence.
 *
 * @example
 * qusVerdicts({ atomic: 'and reduce congestion' }).find((v) => v.criterion === 'atomic');
 * // { criterion: 'atomic', verdict: 'defect', evidence: 'and reduce congestion' }
 */
export function qusVerdicts(
  defects: Partial<Record<StoryLevelCriterion, string>> = {},
): CriterionVerdict[] {
  return STORY_LEVEL_CRITERIA.map((criterion) => {
    const evidence = defects[criterion];
    return evidence === undefined
      ? { criterion, verdict: 'pass', evidence: '' }
      : { criterion, verdict: 'defect', evidence };
  });
}
