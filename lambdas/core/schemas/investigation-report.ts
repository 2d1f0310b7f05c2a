/**
 * What an investigate run leaves besides its iterations' results: each iteration's
 * pull-request step outcome (`iterations/<n>/pull-request.json`) and, when the run ends, the
 * run's report (`investigation-report.json`). Their writers parse them before writing and
 * their readers when reading.
 */
import { z } from 'zod';
import { CONFIDENCES, INVESTIGATION_VERDICTS } from './investigation.js';

const TokensSchema = z.strictObject({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
});

/** A reason in words, cut to fit the state machine's state and a terminal line. */
export const REASON_CHARS = 500;

/**
 * What the pull-request step made of one iteration's verdict:
 * - `opened`: a draft (or, as configured, a ready) pull request is open for the fix;
 * - `refused`: a verified fix, but no pull request (the cap, drafts refused, the host said no);
 * - `not-fixed`: no verified fix, so no pull request (the analysis may go to an issue comment).
 */
export const FIX_PULL_REQUEST_OUTCOMES = ['opened', 'refused', 'not-fixed'] as const;

export const FixPullRequestOutcomeSchema = z.strictObject({
  runId: z.string().min(1),
  iteration: z.number().int().positive(),
  taskId: z.string().min(1),
  verdict: z.enum(INVESTIGATION_VERDICTS),
  outcome: z.enum(FIX_PULL_REQUEST_OUTCOMES),
  /** Why no pull request (absent when one is open). */
  reason: z.string().max(REASON_CHARS).optional(),
  pullRequest: z
    .strictObject({
      number: z.number().int().positive(),
      htmlUrl: z.string().min(1),
      draft: z.boolean(),
    })
    .optional(),
  /** The issue comment that carries the analysis instead. */
  comment: z
    .strictObject({ issueNumber: z.number().int().positive(), htmlUrl: z.string().min(1) })
    .optional(),
});
export type FixPullRequestOutcome = z.infer<typeof FixPullRequestOutcomeSchema>;

/** One error of the run, as its report tells it. */
export const ReportedErrorSchema = z.strictObject({
  taskId: z.string().min(1),
  source: z.string().min(1),
  fingerprint: z.string().min(1),
  /** Absent for an error no iteration reported on (the run ended first, or its runner failed). */
  verdict: z.enum(INVESTIGATION_VERDICTS).optional(),
  confidence: z.enum(CONFIDENCES).optional(),
  rootCause: z.string().optional(),
  passes: z.number().int().nonnegative(),
  secondPass: z.boolean(),
  correction: z.strictObject({ attempted: z.boolean(), succeeded: z.boolean() }),
  pullRequest: z
    .strictObject({ number: z.number().int(), htmlUrl: z.string(), draft: z.boolean() })
    .optional(),
  commentUrl: z.string().optional(),
  /** Why there is no pull request, in words. */
  whyNoPullRequest: z.string().optional(),
  tokens: TokensSchema,
  costUsd: z.number().nonnegative(),
});
export type ReportedError = z.infer<typeof ReportedErrorSchema>;

/** `runs/<runId>/investigation-report.json`: what an investigate run came to. */
export const InvestigationReportSchema = z.strictObject({
  runId: z.string().min(1),
  batchId: z.string().min(1),
  projectId: z.string().min(1),
  errorsAnalysed: z.number().int().nonnegative(),
  secondPasses: z.number().int().nonnegative(),
  corrections: z.strictObject({
    attempted: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
  }),
  pullRequestsOpened: z.array(
    z.strictObject({ taskId: z.string(), number: z.number().int(), htmlUrl: z.string() }),
  ),
  issuesCommented: z.array(
    z.strictObject({ taskId: z.string(), issueNumber: z.number().int(), htmlUrl: z.string() }),
  ),
  tokens: TokensSchema,
  costUsd: z.number().nonnegative(),
  errors: z.array(ReportedErrorSchema),
});
export type InvestigationReport = z.infer<typeof InvestigationReportSchema>;
