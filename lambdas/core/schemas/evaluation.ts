/**
 * Dual-mode evaluation (shared/design/dual-mode-evaluation.md): the artefacts both modes
 * score, the learned patterns the cheap mode uses, and both modes' results.
 */
import { z } from 'zod';
import { UserStorySchema } from './prd.js';
import { GateResultSchema } from './gate-result.js';
import { DefectSchema, QusCriterionSchema, QusSettingsSchema } from './qus.js';

const IsoDate = z.iso.datetime({ offset: true });

/** A user story as an evaluation suite's pipeline writes it (the design document's `Story`). */
export const StoryDocumentSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  description: z.string(),
  acceptance_criteria: z.array(z.string()),
  technical_area: z.string().nullable().optional(),
  services: z.array(z.string()).default([]),
  source_conversations: z.array(z.string()).default([]),
});
export type StoryDocument = z.infer<typeof StoryDocumentSchema>;

/** Per task: what the iteration changed, and how the gates judged it. */
export const ChangeArtefactSchema = z.object({
  kind: z.literal('change'),
  id: z.string().min(1),
  story: UserStorySchema,
  diff: z.string(),
  gates: z.array(GateResultSchema),
  transcriptSummary: z.string().default(''),
  filesChanged: z.array(z.string()).default([]),
});
export type ChangeArtefact = z.infer<typeof ChangeArtefactSchema>;

/** One document an evaluation suite wrote for one fixed input (same id every iteration). */
export const DocumentArtefactSchema = z.object({
  kind: z.literal('document'),
  id: z.string().min(1),
  /** What the document is; `user_story` is the first kind with a rubric and heuristics. */
  documentType: z.string().min(1).default('user_story'),
  content: z.unknown(),
});
export type DocumentArtefact = z.infer<typeof DocumentArtefactSchema>;

export const ArtefactSchema = z.discriminatedUnion('kind', [
  ChangeArtefactSchema,
  DocumentArtefactSchema,
]);
export type Artefact = z.infer<typeof ArtefactSchema>;
export type ArtefactKind = Artefact['kind'];

export const PATTERN_STATUSES = ['active', 'provisional', 'rejected', 'pruned'] as const;

/**
 * A learned pattern (the design document's PatternV2, extended): what it matches
 * (keywords, phrases, regexes — any hit fires it), its signed effect (`good` adds its
 * weight, `bad` subtracts), and its track record against the judge.
 */
export const PatternSchema = z.object({
  id: z.string().regex(/^p_[a-z0-9_]+$/, 'like p_001'),
  type: z.enum(['good', 'bad']),
  description: z.string(),
  /** Artefact kinds (and document types) the pattern applies to. */
  appliesTo: z.array(z.string()).default(['document:user_story']),
  category: z.string().default('quality'),
  keywords: z.array(z.string().min(1)).default([]),
  phrases: z.array(z.string().min(1)).default([]),
  regexes: z.array(z.string().min(1)).default([]),
  weight: z.number().min(0).max(2).default(1),
  source: z.string(),
  discoveredAt: IsoDate,
  learnedIteration: z.number().int().nonnegative().default(0),
  status: z.enum(PATTERN_STATUSES).default('active'),
  /** Agreement with the judge: times the pattern fired on an artefact the judge scored. */
  timesTested: z.number().int().nonnegative().default(0),
  timesCorrect: z.number().int().nonnegative().default(0),
  timesFired: z.number().int().nonnegative().default(0),
  /** Iteration in which the pattern last fired (for pruning unused ones). */
  lastFiredIteration: z.number().int().nonnegative().optional(),
});
export type Pattern = z.infer<typeof PatternSchema>;

export const ScoringWeightsSchema = z.object({
  titleQuality: z.number().min(0).default(1),
  acCount: z.number().min(0).default(1),
  techSpecificity: z.number().min(0).default(1.2),
  userFocus: z.number().min(0).default(1),
  scopeCheck: z.number().min(0).default(0.8),
});

export const TechValidationSchema = z.object({
  /** Repository or service → path prefixes known to exist there. */
  validRepoPaths: z.record(z.string(), z.array(z.string())).default({}),
  validExtensions: z
    .array(z.string())
    .default(['.ts', '.tsx', '.js', '.jsx', '.py', '.php', '.go', '.rs', '.java']),
});

/**
 * The acceptance-criteria count buckets of the user-story heuristics (the design's numbers
 * by default): none (0), too few (fewer than `fewLimit`), too many (more than
 * `manyLimit`), ideal (`idealMin`–`idealMax`), otherwise in between. The scope check uses
 * the same limits: fewer than `fewLimit` or more than `manyLimit` criteria is out of scope.
 */
export const AcceptanceCriteriaBoundsSchema = z
  .strictObject({
    fewLimit: z.number().int().min(1).default(2),
    idealMin: z.number().int().min(1).default(3),
    idealMax: z.number().int().min(1).default(7),
    manyLimit: z.number().int().min(1).default(10),
  })
  .superRefine((bounds, ctx) => {
    // Out of order, a bucket would swallow another: ideal counts read as too few or too many.
    const order = ['fewLimit', 'idealMin', 'idealMax', 'manyLimit'] as const;
    for (let i = 1; i < order.length; i += 1) {
      const [lower, upper] = [order[i - 1]!, order[i]!];
      if (bounds[lower] > bounds[upper])
        ctx.addIssue({
          code: 'custom',
          path: [upper],
          input: bounds[upper],
          message: `${upper} (${bounds[upper]}) is below ${lower} (${bounds[lower]}): expected ${order.join(' ≤ ')}`,
        });
    }
  });
export type AcceptanceCriteriaBounds = z.infer<typeof AcceptanceCriteriaBoundsSchema>;

/** Settings of the user-story heuristics; absent from a set, every default applies. */
export const StoryHeuristicsSchema = z.strictObject({
  acceptanceCriteria: AcceptanceCriteriaBoundsSchema.prefault({}),
});
export type StoryHeuristics = z.infer<typeof StoryHeuristicsSchema>;
/** The settings a set without `storyHeuristics` is scored with. */
export const DEFAULT_STORY_HEURISTICS: StoryHeuristics = StoryHeuristicsSchema.parse({});

/**
 * Carried from a v1 pattern file, not read by the evaluator: the v1 values the migration
 * could not turn into patterns or settings, verbatim, under the v1 field they came from
 * (`scoping_rules`, `service_insights`), so that nothing of the old file is lost.
 */
export const LegacySchema = z.record(z.string(), z.unknown());

/** One version of a project's pattern set (`projects/{id}/patterns/v{n}.json`). */
export const PatternSetSchema = z.object({
  schemaVersion: z.literal('2.0'),
  version: z.number().int().positive(),
  /** The version this one was derived from (what a rollback returns to). */
  parentVersion: z.number().int().positive().optional(),
  createdAt: IsoDate,
  reason: z.string().default(''),
  patterns: z.array(PatternSchema),
  techValidation: TechValidationSchema.prefault({}),
  scoringWeights: ScoringWeightsSchema.prefault({}),
  /**
   * The user-story defect detectors' settings (QUS); `ralph eval calibrate` fits them.
   * Optional, defaults filled in when compiled, for the checksum's sake as below.
   */
  qus: QusSettingsSchema.optional(),
  /**
   * Optional, with no default, so that a set written before it existed keeps its checksum
   * (the checksum covers the content as read).
   */
  storyHeuristics: StoryHeuristicsSchema.optional(),
  legacy: LegacySchema.optional(),
});
export type PatternSet = z.infer<typeof PatternSetSchema>;

/** The cheap mode's verdict on one artefact (the design document's CheapModeResult). */
export const CheapModeResultSchema = z.object({
  artefactId: z.string(),
  gestalt: z.number().min(1).max(5),
  rawScore: z.number().min(0).max(5),
  reasons: z.array(z.string()),
  patternsMatched: z.array(z.string()),
  patternsMissed: z.array(z.string()).default([]),
  /** The QUS criteria the artefact violates, each with its evidence (user stories only). */
  defects: z.array(DefectSchema).default([]),
});
export type CheapModeResult = z.infer<typeof CheapModeResultSchema>;

/**
 * The judge's verdict on one QUS criterion of a user story: `evidence` is the span of the
 * story that shows a defect, quoted as written (empty for a pass).
 */
export const CriterionVerdictSchema = z.object({
  criterion: QusCriterionSchema,
  verdict: z.enum(['pass', 'defect']),
  evidence: z.string(),
});
export type CriterionVerdict = z.infer<typeof CriterionVerdictSchema>;

/** What the judge answers about any artefact: the gestalt and what it rests on. */
export const GestaltAnswerSchema = z.object({
  gestalt: z.number().min(1).max(5),
  reasoning: z.string().min(1),
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
});

/**
 * What the judge must answer (structured output, validated before it is believed). The
 * per-criterion verdicts are asked for user stories only (`judge/answer.ts` requires them
 * there); they are optional here so that verdicts stored before they existed still parse.
 */
export const JudgeAnswerSchema = GestaltAnswerSchema.extend({
  criteria: z.array(CriterionVerdictSchema).optional(),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

export const ModelUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

/**
 * The expensive mode's verdict on one artefact. A failed evaluation is recorded as failed,
 * never as a score that would enter an average.
 */
export const ExpensiveModeResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    artefactId: z.string(),
    ...JudgeAnswerSchema.shape,
    attempts: z.number().int().positive(),
    usage: ModelUsageSchema,
    /** Set when the judge was re-run for variance: every score, the median is `gestalt`. */
    samples: z.array(z.number().min(1).max(5)).optional(),
  }),
  z.object({
    status: z.literal('failed'),
    artefactId: z.string(),
    error: z.string(),
    attempts: z.number().int().positive(),
    usage: ModelUsageSchema,
    /** Where the raw, unusable answer is kept (S3), when there was one. */
    rawAnswerKey: z.string().optional(),
  }),
]);
export type ExpensiveModeResult = z.infer<typeof ExpensiveModeResultSchema>;
