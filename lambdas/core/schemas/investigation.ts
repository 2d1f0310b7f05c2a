/**
 * The investigate task kind (design: shared/design/error-triggered-multipass.md, with the
 * project's real gates in place of its syntax check). An investigate run's tasks are error
 * groups; its iteration asks a fresh agent for a structured analysis and a fix, follows a
 * low-confidence pass without a fix with a second one, verifies the fix against the gates
 * as they were before it, corrects once, and ends with a draft pull request or a report.
 */
import { z } from 'zod';
import { ErrorGroupKeySchema } from './error-group.js';
import { GateResultSchema } from './gate-result.js';
import { CodeHostRepoSchema, InvestigateSettingsSchema, ProjectIdSchema } from './project-route.js';

const IsoDate = z.iso.datetime({ offset: true });

/** One error group as a task of the run: its task id, its key and its rank. */
export const InvestigatedErrorSchema = ErrorGroupKeySchema.extend({
  taskId: z.string().min(1),
  /** Higher first: frequency, severity, recency and users affected (incidents/rank.ts). */
  score: z.number(),
});
export type InvestigatedError = z.infer<typeof InvestigatedErrorSchema>;

/**
 * What makes a run an investigate run: on its request and its record. The error groups'
 * events, as they were when the batch closed, are artefacts (`artefactKeys.errorGroup`).
 */
export const RunInvestigationSchema = z.strictObject({
  batchId: z.string().min(1),
  projectId: ProjectIdSchema,
  /** The branch every fix starts from and its pull request goes into. */
  baseBranch: z.string().min(1),
  codeHost: CodeHostRepoSchema.optional(),
  settings: InvestigateSettingsSchema,
  errors: z.array(InvestigatedErrorSchema).min(1),
});
export type RunInvestigation = z.infer<typeof RunInvestigationSchema>;

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export const ConfidenceSchema = z.enum(CONFIDENCES);
export type Confidence = z.infer<typeof ConfidenceSchema>;

/** What the agent is asked to write (`.ralph/analysis.json`): its findings, structured. */
export const AnalysisSchema = z.strictObject({
  rootCause: z.string().min(1).max(4000),
  confidence: ConfidenceSchema,
  /** How it got there, briefly. */
  reasoning: z.string().max(4000).default(''),
  filesExamined: z.array(z.string().min(1).max(500)).max(200).default([]),
  /** What it learned about the codebase that helps with the next error. */
  patternsDiscovered: z.array(z.string().min(1).max(500)).max(50).default([]),
  suggestedNextSteps: z.array(z.string().min(1).max(500)).max(50).default([]),
  /** What its fix changes, in a sentence (absent when it made none). */
  fixSummary: z.string().max(2000).optional(),
});
export type Analysis = z.infer<typeof AnalysisSchema>;

/** One pass: a fresh agent on the error, seeded with the passes before it. */
export const AnalysisPassSchema = z.strictObject({
  pass: z.number().int().positive(),
  /** `correction`: the one pass that is given the gate output of a fix that failed. */
  kind: z.enum(['analysis', 'correction']),
  /** Absent when the agent wrote none, or none that could be read (`problem` says which). */
  analysis: AnalysisSchema.optional(),
  problem: z.string().optional(),
  /** Files the pass changed in the working copy: its fix. */
  changedFiles: z.array(z.string()),
  agentExitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  tokens: z
    .strictObject({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() })
    .optional(),
  costUsd: z.number().nonnegative().optional(),
});
export type AnalysisPass = z.infer<typeof AnalysisPassSchema>;

/**
 * - `fix-verified`: a fix that keeps every gate that passed before it passing.
 * - `no-fix`: no pass made a change (the analysis is the result).
 * - `fix-failed-gates`: the fix broke a gate, and the correction did not mend it.
 */
export const INVESTIGATION_VERDICTS = ['fix-verified', 'no-fix', 'fix-failed-gates'] as const;
export type InvestigationVerdict = (typeof INVESTIGATION_VERDICTS)[number];

/** The investigate iteration's report, in result.json beside the common fields. */
export const InvestigationResultSchema = z.strictObject({
  source: ErrorGroupKeySchema.shape.source,
  fingerprint: z.string().min(1),
  verdict: z.enum(INVESTIGATION_VERDICTS),
  /** In words: why no pull request, or what the fix does. */
  summary: z.string(),
  passes: z.array(AnalysisPassSchema).min(1),
  /** The pass whose analysis is kept (the best: a fix first, then confidence, then latest). */
  chosenPass: z.number().int().positive(),
  /** The gates on the base before any change, and on the fix. */
  gatesBefore: z.array(GateResultSchema),
  gatesAfter: z.array(GateResultSchema),
  /** Gates that passed before the fix and fail after it. */
  broken: z.array(z.string()),
  correction: z.strictObject({ attempted: z.boolean(), succeeded: z.boolean() }),
  /** The verified fix: its commit, the branch it is for and the ref it was pushed to. */
  fix: z
    .strictObject({
      branch: z.string().min(1),
      commit: z.string().min(1),
      pushedRef: z.string().optional(),
    })
    .optional(),
});
export type InvestigationResult = z.infer<typeof InvestigationResultSchema>;

/**
 * The issue comment that carries an analysis when no pull request is opened: saved as
 * `pending` before it is posted and `posted` after, so a retried step does not post again.
 */
export const AnalysisCommentSchema = z.strictObject({
  issueNumber: z.number().int().positive(),
  state: z.enum(['pending', 'posted']),
  id: z.number().int().positive().optional(),
  htmlUrl: z.string().optional(),
});
export type AnalysisComment = z.infer<typeof AnalysisCommentSchema>;

/**
 * What a task's investigation came to on the code host: the fix's pull request, saved
 * before the branch is pushed and the pull request opened, so a retried step finds it and
 * does not open a second one; or, for a task without a verified fix, `refused` with the
 * reason and the issue comment made instead (`comment`).
 */
export const FixPullRequestSchema = z
  .strictObject({
    runId: z.string().min(1),
    taskId: z.string().min(1),
    /** The iteration whose result it is. */
    iteration: z.number().int().positive(),
    repo: CodeHostRepoSchema,
    /** The fix's branch and commit: absent when there was no verified fix. */
    branch: z.string().min(1).optional(),
    base: z.string().min(1),
    commit: z.string().min(1).optional(),
    title: z.string().min(1),
    body: z.string(),
    state: z.enum(['pending', 'opened', 'refused']),
    number: z.number().int().positive().optional(),
    htmlUrl: z.string().optional(),
    draft: z.boolean().optional(),
    /** Why it was not opened (`refused`): no verified fix, the cap of open pull requests, a draft refused. */
    reason: z.string().optional(),
    comment: AnalysisCommentSchema.optional(),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    version: z.number().int().positive(),
  })
  .superRefine((record, context) => {
    if (record.state === 'refused') return;
    for (const field of ['branch', 'commit'] as const)
      if (record[field] === undefined)
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `a ${record.state} pull request needs its ${field}`,
        });
  });
export type FixPullRequest = z.infer<typeof FixPullRequestSchema>;
