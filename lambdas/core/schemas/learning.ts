/**
 * Learning across iterations, runs and projects (shared/design/learned-rules.md, stages 0A
 * and 0B; shared/design/cross-loop-learning.md): run hints, project rules, the cross-loop
 * pattern registry, the snapshot a run freezes at its start, and what each iteration was
 * given. One model per concept: the stores, the loop, the CLI and bundles all use these.
 */
import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });
/** Ids that become key segments (`RULE#<id>`, `registry/archive/<id>.json`). */
const Id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - only');

/** What kind of work a task is, read from its story (learning/task-category.ts). */
export const TASK_CATEGORIES = [
  'feature',
  'bugfix',
  'testing',
  'refactor',
  'docs',
  'config',
  'investigation',
] as const;
export const TaskCategorySchema = z.enum(TASK_CATEGORIES);
export type TaskCategory = z.infer<typeof TaskCategorySchema>;

/**
 * The identity of a problem across tasks and runs: the class of what failed (the failed
 * gate's kind, or the outcome when no gate failed) and the error signature with the
 * places it named (files, positions) taken out, so the same mistake in two files is one key.
 */
export const IssueKeySchema = z.strictObject({
  class: z.string().min(1),
  signature: z.string().min(1),
});
export type IssueKey = z.infer<typeof IssueKeySchema>;

/** Stage 0A: a task passed after failing; later iterations of the run learn from it. */
export const RunHintSchema = z.strictObject({
  runId: Id,
  /** `h<iteration>`: one hint per passing iteration, so a retried step writes it once. */
  hintId: Id,
  /** The iteration that passed. */
  iteration: z.number().int().positive(),
  taskId: z.string().min(1),
  category: TaskCategorySchema,
  issue: IssueKeySchema,
  /** The files the passing change touched. */
  scopePaths: z.array(z.string().min(1)),
  /** The failing iterations and the passing one, oldest first. */
  sourceIterations: z.array(z.number().int().positive()).min(1),
  /** What the agent said it learned (its summary when it gave no learnings). */
  lesson: z.string(),
  /** "Resolved <key> in <files> - <lesson>": the words the prompt shows. */
  text: z.string().min(1),
  createdAt: IsoDate,
});
export type RunHint = z.infer<typeof RunHintSchema>;

export const RULE_STATUSES = ['active', 'deprecated'] as const;

/** Stage 0B: a hint group seen at least twice, promoted at run end; kept per project. */
export const ProjectRuleSchema = z.strictObject({
  projectId: Id,
  ruleId: Id,
  version: z.number().int().positive(),
  category: TaskCategorySchema,
  /** A glob over repository paths (`src/**`, `*.py`); absent: every file. */
  scopePattern: z.string().min(1).optional(),
  issue: IssueKeySchema,
  /** The words the prompt shows. */
  constraint: z.string().min(1),
  /** `<runId>/<hintId>` of every hint that led to it. */
  sourceHints: z.array(z.string().min(1)).min(1),
  /** How many run ends promoted it. */
  promotionCount: z.number().int().positive(),
  firstSeen: IsoDate,
  lastSeen: IsoDate,
  status: z.enum(RULE_STATUSES),
  /** Why a person deprecated it. */
  deprecatedReason: z.string().optional(),
});
export type ProjectRule = z.infer<typeof ProjectRuleSchema>;

export const PATTERN_TYPES = ['error', 'success', 'anti', 'template'] as const;
export const PatternTypeSchema = z.enum(PATTERN_TYPES);
export type PatternType = z.infer<typeof PatternTypeSchema>;

/** `project:<projectId>` or `org`: who a registry pattern is shared with. */
export const RegistryScopeSchema = z.union([
  z.literal('org'),
  z.string().regex(/^project:[A-Za-z0-9][A-Za-z0-9._-]*$/, 'project:<projectId> or org'),
]);
export type RegistryScope = z.infer<typeof RegistryScopeSchema>;

/** A run that taught or used a pattern. */
/**
 * How a source reached this registry in a signed bundle (`ralph share import`): who signed
 * it, as the trusted key says, and the envelope's digest. Kept from the first signed arrival.
 */
export const SharedProvenanceSchema = z.strictObject({
  /** `sha256:<hex>` of the DSSE envelope's bytes. */
  bundle: z.string().min(1),
  keyId: z.string().min(1),
  /** The publishing AWS account, when the trusted key names one. */
  account: z.string().min(1).optional(),
});
export type SharedProvenance = z.infer<typeof SharedProvenanceSchema>;

export const PatternSourceSchema = z.strictObject({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  /** The iterations of that run the pattern was extracted from. */
  iterations: z.array(z.number().int().positive()).default([]),
  at: IsoDate,
  /** Where it came from when it was imported: the bundle's digest and who exported it. */
  bundle: z.string().optional(),
  /** Where it came from when it was imported from a signed bundle. */
  shared: SharedProvenanceSchema.optional(),
});
export type PatternSource = z.infer<typeof PatternSourceSchema>;

/** The success rate after some uses: one point of the effectiveness trend. */
export const TrendPointSchema = z.strictObject({
  at: IsoDate,
  /** The run whose uses moved it: a run's uses are counted once, however often its end is retried. */
  runId: z.string().min(1).optional(),
  successRate: z.number().min(0).max(1),
  uses: z.number().int().nonnegative(),
});

/** One entry of the cross-loop registry (error→fix, success, anti-pattern, code template). */
export const RegistryPatternSchema = z.strictObject({
  scope: RegistryScopeSchema,
  patternId: Id,
  version: z.number().int().positive(),
  type: PatternTypeSchema,
  /** One line: what it is about (the error, the category's approach, the dead end). */
  title: z.string().min(1),
  /** The words the prompt shows: the fix, the approach, what to do instead. */
  body: z.string().min(1),
  category: TaskCategorySchema.optional(),
  /** error and anti: the issue it is about. */
  issue: IssueKeySchema.optional(),
  /** template: the snippet and its language. */
  template: z.strictObject({ language: z.string().min(1), code: z.string().min(1) }).optional(),
  tags: z.array(z.string().min(1)).default([]),
  /** Iterations that were given it, and how many of them passed. */
  uses: z.number().int().nonnegative(),
  successes: z.number().int().nonnegative(),
  /** successes ÷ uses; 1 before any use (what extraction saw: it worked once). */
  successRate: z.number().min(0).max(1),
  /** success: the mean iterations the category's tasks took. */
  averageIterations: z.number().positive().optional(),
  trend: z.array(TrendPointSchema).default([]),
  sources: z.array(PatternSourceSchema).min(1),
  createdAt: IsoDate,
  lastUsedAt: IsoDate.optional(),
  updatedAt: IsoDate,
});
export type RegistryPattern = z.infer<typeof RegistryPatternSchema>;

/**
 * What a run learns from, frozen at its start (`runs/{runId}/learning-snapshot.json`): the
 * project's active rules and the registry's patterns of the project and the organisation.
 */
export const LearningSnapshotSchema = z.strictObject({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  takenAt: IsoDate,
  rules: z.array(ProjectRuleSchema),
  patterns: z.array(RegistryPatternSchema),
});
export type LearningSnapshot = z.infer<typeof LearningSnapshotSchema>;

/** Something injected into a prompt, by kind and id (`h4`, a rule id, a pattern id). */
export const InjectedSchema = z
  .strictObject({
    kind: z.enum(['hint', 'rule', 'pattern']),
    id: z.string().min(1),
    /** pattern: its scope, so its use is counted in the right registry. */
    scope: RegistryScopeSchema.optional(),
  })
  .refine((injected) => injected.kind !== 'pattern' || injected.scope !== undefined, {
    message: 'a pattern needs its scope: the same id may be in a project and the organisation',
    path: ['scope'],
  });
export type Injected = z.infer<typeof InjectedSchema>;

/** A rule as a plan carries it: the runner skips it when its scope matches no file. */
export const PlannedRuleSchema = z.strictObject({
  ruleId: z.string().min(1),
  scopePattern: z.string().optional(),
  text: z.string().min(1),
});

/** What planning hands the runner to put in the prompt (plan.json `learning`). */
export const PlanLearningSchema = z.strictObject({
  category: TaskCategorySchema,
  /** The task is in the control share: nothing is injected. */
  control: z.boolean(),
  hints: z.array(z.strictObject({ hintId: z.string().min(1), text: z.string().min(1) })),
  rules: z.array(PlannedRuleSchema),
  patterns: z.array(
    z.strictObject({
      patternId: z.string().min(1),
      scope: RegistryScopeSchema,
      type: PatternTypeSchema,
      text: z.string().min(1),
    }),
  ),
});
export type PlanLearning = z.infer<typeof PlanLearningSchema>;

/** What an iteration was given (on its record): the runner's report of the prompt it rendered. */
export const IterationLearningSchema = z.strictObject({
  category: TaskCategorySchema,
  control: z.boolean(),
  injected: z.array(InjectedSchema),
  /** Rules the plan carried whose scope matched no file of the repository. */
  skippedRules: z.array(z.string()).default([]),
});
export type IterationLearning = z.infer<typeof IterationLearningSchema>;

/** Which side of the comparison a task was on. */
export const EFFECT_GROUPS = ['injected', 'control', 'nothing'] as const;
export const EffectGroupSchema = z.enum(EFFECT_GROUPS);
export type EffectGroup = z.infer<typeof EffectGroupSchema>;

/** One task of a run, as the effect of injection is measured on it. */
export const TaskEffectSchema = z.strictObject({
  runId: z.string().min(1),
  taskId: z.string().min(1),
  /**
   * injected: something learned was in at least one of its prompts; control: the control
   * share withheld everything; nothing: not a control, but there was nothing to inject.
   */
  group: EffectGroupSchema,
  passed: z.boolean(),
  /** Iterations it took to pass (or that it used without passing). */
  iterations: z.number().int().nonnegative(),
});
export type TaskEffect = z.infer<typeof TaskEffectSchema>;

export const EffectFiguresSchema = z.strictObject({
  tasks: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  /** passed ÷ tasks; absent without tasks. */
  passRate: z.number().min(0).max(1).optional(),
  /** Mean iterations to pass over the tasks that passed; absent when none did. */
  meanIterationsToPass: z.number().nonnegative().optional(),
});
export type EffectFigures = z.infer<typeof EffectFiguresSchema>;

/** With and without injection, over a run's tasks or a project's (learning-report.json). */
export const EffectReportSchema = z.strictObject({
  scope: z.string().min(1),
  groups: z.strictObject({
    injected: EffectFiguresSchema,
    control: EffectFiguresSchema,
    nothing: EffectFiguresSchema,
  }),
  /** Whether both sides have enough tasks to compare. */
  conclusive: z.boolean(),
  /** The comparison in words, or why there is none. */
  conclusion: z.string().min(1),
  tasks: z.array(TaskEffectSchema),
});
export type EffectReport = z.infer<typeof EffectReportSchema>;

/** What a run's end learned, beside its effect (learning-report.json). */
export const RunLearningReportSchema = z.strictObject({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  hints: z.number().int().nonnegative(),
  rulesCreated: z.array(z.string()),
  rulesPromoted: z.array(z.string()),
  patternsAdded: z.array(z.string()),
  patternsMerged: z.array(z.string()),
  patternsUsed: z.number().int().nonnegative(),
  effect: EffectReportSchema,
});
export type RunLearningReport = z.infer<typeof RunLearningReportSchema>;
