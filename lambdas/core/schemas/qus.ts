/**
 * The Quality User Story framework (Lucassen et al., "Improving agile requirements: the
 * Quality User Story framework and tool", RE 2016): the criteria a user story is checked
 * against, by the cheap detectors and by the judge alike, so that the two can be compared
 * criterion by criterion.
 */
import { z } from 'zod';

/**
 * The criteria, by QUS name in lower case. Syntactic: well-formed, atomic, minimal.
 * Semantic: conceptually-sound, problem-oriented, unambiguous. Pragmatic: full-sentence,
 * uniform, unique.
 */
export const QUS_CRITERIA = [
  'well-formed',
  'atomic',
  'minimal',
  'conceptually-sound',
  'problem-oriented',
  'unambiguous',
  'full-sentence',
  'uniform',
  'unique',
] as const;
export const QusCriterionSchema = z.enum(QUS_CRITERIA);
export type QusCriterion = z.infer<typeof QusCriterionSchema>;

/** The syntactic criteria: what "any syntactic defect" is made of. */
export const SYNTACTIC_CRITERIA: readonly QusCriterion[] = ['well-formed', 'atomic', 'minimal'];

/**
 * One criterion a story violates, and the span of the story that shows it: the words a
 * reader can check ("and reduce congestion", "(AVs)"), never a paraphrase.
 */
export const DefectSchema = z.strictObject({
  criterion: QusCriterionSchema,
  evidence: z.string(),
  /** The other story the defect is about: for `unique`, the one this story duplicates. */
  relatedId: z.string().optional(),
});
export type Defect = z.infer<typeof DefectSchema>;

/**
 * How the cheap detectors weigh and decide, per pattern set: what `ralph eval calibrate`
 * fits on labelled stories (and the defaults it starts from).
 */
export const QusSettingsSchema = z.strictObject({
  /** Criteria whose detectors run; a criterion left out is never reported by the cheap mode. */
  detectors: z
    .array(QusCriterionSchema)
    .default(['well-formed', 'atomic', 'minimal', 'full-sentence', 'uniform', 'unique']),
  /**
   * What a defect of a criterion costs: the criterion's weight among the story heuristics
   * (the design's five weigh 0.8–1.2), so a story that passes it earns the weight and one
   * that violates it does not, at any level of the scale. A criterion not listed weighs
   * `defaultPenalty`. Not being a story at all (well-formed) weighs most.
   */
  penalties: z
    .partialRecord(QusCriterionSchema, z.number().min(0).max(4))
    .default({ 'well-formed': 1.5, atomic: 1, minimal: 1, unique: 1 }),
  defaultPenalty: z.number().min(0).max(4).default(0.5),
  /**
   * Atomic: where a conjunction counts. `means` reads only the "I want …" part, as the QUS
   * definition ("one feature"); `role-and-means` also the role, as AQUSA does.
   */
  atomicScope: z.enum(['means', 'role-and-means']).default('role-and-means'),
  /** Unique: two stories at least this similar (word-set Jaccard, 0–1) are near-duplicates. */
  nearDuplicateSimilarity: z.number().min(0).max(1).default(0.9),
  /**
   * Uniform: a story whose template differs from the backlog's dominant one is reported only
   * when that template holds at least this share of the backlog (otherwise there is none).
   */
  uniformShare: z.number().min(0).max(1).default(0.6),
});
export type QusSettings = z.infer<typeof QusSettingsSchema>;

/** The settings a pattern set without a `qus` section scores with. */
export const DEFAULT_QUS_SETTINGS: QusSettings = QusSettingsSchema.parse({});

/**
 * The criteria that can be decided from one story alone, what the judge is asked: uniform
 * and unique compare a story with the rest of its backlog, which a judge shown one story
 * never sees (the cheap mode reports them across the artefacts of one evaluation).
 */
export const STORY_LEVEL_CRITERIA = QUS_CRITERIA.filter(
  (criterion): criterion is StoryLevelCriterion =>
    criterion !== 'uniform' && criterion !== 'unique',
);
export type StoryLevelCriterion = Exclude<QusCriterion, 'uniform' | 'unique'>;
