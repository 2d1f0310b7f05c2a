/**
 * The pull-request step of an investigate run, after the runner: a verified fix becomes a
 * draft pull request on the project's repository (open-pull-request-for-fix.ts); an error
 * without one is kept as a refusal with its analysis, commented on the project's issue when
 * it names one (comment-analysis.ts). The outcome is written beside the iteration's result
 * (`pull-request.json`, read by the run's report) and returned to the state machine, small.
 *
 * Nothing to do for a run that is not an investigate run or an iteration the runner left no
 * investigation for (it failed before one).
 */
import { z } from 'zod';
import { CodeHostRejectedError } from '../errors.js';
import {
  fixPullRequestBody,
  fixPullRequestTitle,
  analysisCommentBody,
  whyNoFix,
  type ErrorDescription,
} from '../investigate/fix-pull-request-text.js';
import { ErrorGroupSchema } from '../schemas/error-group.js';
import type {
  FixPullRequest,
  InvestigationResult,
  RunInvestigation,
} from '../schemas/investigation.js';
import {
  FixPullRequestOutcomeSchema,
  REASON_CHARS,
  type FixPullRequestOutcome,
} from '../schemas/investigation-report.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import { commentAnalysis } from './comment-analysis.js';
import { concludeErrorGroup } from './conclude-error-group.js';
import type { FixPullRequestDeps } from './fix-pull-request-deps.js';
import { iterationResultOf, readResultReport } from './iteration-result.js';
import { loadIteration, loadRun } from './load.js';
import { openPullRequestForFix, type PendingPullRequest } from './open-pull-request-for-fix.js';
import { readOptionalText } from '../shared/optional-document.js';

export const OpenFixPullRequestInputSchema = z.object({
  runId: z.string().min(1),
  segment: z.number().int().positive().optional(),
  iteration: z.number().int().positive(),
});
export type OpenFixPullRequestInput = z.infer<typeof OpenFixPullRequestInputSchema>;

/** What the state machine keeps (`$.fixPullRequest`): the outcome, or why there was none. */
export type OpenFixPullRequestResult =
  | (Pick<FixPullRequestOutcome, 'outcome' | 'reason'> & { number?: number; htmlUrl?: string })
  | { outcome: 'skipped'; reason: string };

/**
 * @example
 * const result = await openFixPullRequest(deps, { runId, iteration: 1 });
 * result.outcome; // 'opened', with result.htmlUrl
 */
export async function openFixPullRequest(
  deps: FixPullRequestDeps,
  input: OpenFixPullRequestInput,
): Promise<OpenFixPullRequestResult> {
  const { runId, iteration } = input;
  const run = await loadRun(deps.runs, runId);
  if (run.investigation === undefined)
    return { outcome: 'skipped', reason: `run ${runId} is not an investigate run` };
  const [record, report] = await Promise.all([
    loadIteration(deps.runs, runId, iteration),
    readResultReport(deps, runId, iteration),
  ]);
  if (report.text === undefined)
    return { outcome: 'skipped', reason: `iteration ${iteration} has no result.json` };
  const result = iterationResultOf(deps, record, report);
  if (result.investigation === undefined)
    return { outcome: 'skipped', reason: `iteration ${iteration} reported no investigation` };
  const outcome = await outcomeOf(deps, run.investigation, result, result.investigation);
  await deps.artefacts.put(
    artefactKeys.iteration(runId, iteration, 'pull-request.json'),
    JSON.stringify(
      parseOrThrow(FixPullRequestOutcomeSchema, outcome, 'pull-request.json'),
      null,
      2,
    ),
    'application/json',
  );
  const { source, fingerprint } = result.investigation;
  await concludeErrorGroup(deps.incidents, { source, fingerprint }, runId, outcome);
  return {
    outcome: outcome.outcome,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    ...(outcome.pullRequest === undefined
      ? {}
      : { number: outcome.pullRequest.number, htmlUrl: outcome.pullRequest.htmlUrl }),
  };
}

async function outcomeOf(
  deps: FixPullRequestDeps,
  investigation: RunInvestigation,
  result: IterationResult,
  found: InvestigationResult,
): Promise<FixPullRequestOutcome> {
  const base = {
    runId: result.runId,
    iteration: result.iteration,
    taskId: result.taskId,
    verdict: found.verdict,
  };
  // A fix counts once the runner says the iteration passed: its gates, on its commit.
  const verified =
    found.verdict === 'fix-verified' && found.fix !== undefined && result.outcome === 'passed';
  const why = verified ? '' : whyNoPullRequest(result, found);
  const { codeHost: repo } = investigation;
  const { codeHost } = deps;
  const missing =
    repo === undefined
      ? `the project route of ${investigation.projectId} names no code host repository`
      : codeHost === undefined
        ? 'no code host access is configured for this deployment'
        : undefined;
  if (!verified && investigation.settings.commentOnIssue === undefined)
    return { ...base, outcome: 'not-fixed', reason: cut(why) };
  if (missing !== undefined || repo === undefined || codeHost === undefined)
    return verified
      ? { ...base, outcome: 'refused', reason: cut(`no pull request: ${missing}`) }
      : {
          ...base,
          outcome: 'not-fixed',
          reason: cut(`${why}; no comment: ${missing}`),
        };

  const error = await describeError(deps, result, found);
  const pending = pendingRecord({ result, found, investigation, repo, error, verified, why });
  const withHost = { ...deps, codeHost };
  if (verified)
    return outcomeOfRecord(base, await openPullRequestForFix(withHost, investigation, pending));
  try {
    return outcomeOfRecord(base, await commentAnalysis(withHost, pending));
  } catch (caught) {
    if (!(caught instanceof CodeHostRejectedError)) throw caught;
    return {
      ...base,
      outcome: 'not-fixed',
      reason: cut(`${why}; the comment was refused: ${caught.message}`),
    };
  }
}

/** The record as first saved: the pull request to open, or the refusal and its comment. */
function pendingRecord(input: {
  result: IterationResult;
  found: InvestigationResult;
  investigation: RunInvestigation;
  repo: NonNullable<RunInvestigation['codeHost']>;
  error: ErrorDescription;
  verified: boolean;
  why: string;
}): PendingPullRequest {
  const { result, found, investigation, repo, error, verified, why } = input;
  const text = { runId: result.runId, error, investigation: found };
  const issueNumber = investigation.settings.commentOnIssue;
  return {
    runId: result.runId,
    taskId: result.taskId,
    iteration: result.iteration,
    repo,
    base: investigation.baseBranch,
    title: fixPullRequestTitle(error.title),
    body: verified ? fixPullRequestBody(text) : analysisCommentBody(text),
    state: verified ? 'pending' : 'refused',
    ...(verified && found.fix ? { branch: found.fix.branch, commit: found.fix.commit } : {}),
    ...(verified ? {} : { reason: cut(why) }),
    ...(!verified && issueNumber !== undefined
      ? { comment: { issueNumber, state: 'pending' as const } }
      : {}),
  };
}

function outcomeOfRecord(
  base: Pick<FixPullRequestOutcome, 'runId' | 'iteration' | 'taskId' | 'verdict'>,
  record: FixPullRequest,
): FixPullRequestOutcome {
  const { comment } = record;
  const commented =
    comment?.state === 'posted' && comment.htmlUrl !== undefined
      ? { comment: { issueNumber: comment.issueNumber, htmlUrl: comment.htmlUrl } }
      : {};
  if (record.state === 'opened' && record.number !== undefined && record.htmlUrl !== undefined)
    return {
      ...base,
      outcome: 'opened',
      pullRequest: { number: record.number, htmlUrl: record.htmlUrl, draft: record.draft ?? false },
    };
  if (record.branch !== undefined)
    return { ...base, outcome: 'refused', reason: cut(record.reason ?? 'no reason recorded') };
  return { ...base, outcome: 'not-fixed', reason: cut(record.reason ?? ''), ...commented };
}

/** The error as its batch closed (`errors/<taskId>.json`), or its key when that is missing. */
async function describeError(
  deps: FixPullRequestDeps,
  result: IterationResult,
  found: InvestigationResult,
): Promise<ErrorDescription> {
  const key = artefactKeys.errorGroup(result.runId, result.taskId);
  const text = await readOptionalText(deps.artefacts, key);
  if (text === undefined) return { title: `${found.source} error ${found.fingerprint}` };
  const { latest } = parseOrThrow(ErrorGroupSchema, parseJsonText(text, key), key);
  return {
    title: latest.title,
    ...(latest.links.web === undefined ? {} : { link: latest.links.web }),
    ...(latest.culprit === undefined ? {} : { culprit: latest.culprit }),
  };
}

/** Why an iteration's investigation has no pull request. */
function whyNoPullRequest(result: IterationResult, found: InvestigationResult): string {
  if (found.verdict === 'fix-verified')
    return `the iteration ended ${result.outcome}${found.fix === undefined ? ' without the fix commit' : ''}`;
  return whyNoFix(found);
}

function cut(reason: string): string {
  return reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason;
}
