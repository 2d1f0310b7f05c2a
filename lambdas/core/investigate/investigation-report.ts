/**
 * An investigate run's report (`investigation-report.json`), from what its iterations left:
 * each iteration's `investigation` (result.json) and its pull-request step's outcome
 * (`pull-request.json`). Pure: the finalize step reads them and writes what this returns.
 */
import type { InvestigationResult, RunInvestigation } from '../schemas/investigation.js';
import type {
  FixPullRequestOutcome,
  InvestigationReport,
  ReportedError,
} from '../schemas/investigation-report.js';
import { whyNoFix } from './fix-pull-request-text.js';
import { passFigures } from './pass-figures.js';

/** What one iteration of the run left, as read back. */
export interface ReportedIteration {
  iteration: number;
  taskId: string;
  investigation?: InvestigationResult;
  outcome?: FixPullRequestOutcome;
}

/**
 * @example
 * const report = investigationReport(runId, run.investigation, iterations);
 * report.pullRequestsOpened; // [{ taskId, number, htmlUrl }]
 */
export function investigationReport(
  runId: string,
  investigation: RunInvestigation,
  iterations: readonly ReportedIteration[],
): InvestigationReport {
  const errors = investigation.errors.map((error) =>
    reportedError(
      error,
      iterations.filter((iteration) => iteration.taskId === error.taskId),
    ),
  );
  const analysed = errors.filter((error) => error.verdict !== undefined);
  return {
    runId,
    batchId: investigation.batchId,
    projectId: investigation.projectId,
    errorsAnalysed: analysed.length,
    secondPasses: errors.filter((error) => error.secondPass).length,
    corrections: {
      attempted: errors.filter((error) => error.correction.attempted).length,
      succeeded: errors.filter((error) => error.correction.succeeded).length,
    },
    pullRequestsOpened: errors.flatMap((error) =>
      error.pullRequest === undefined
        ? []
        : [
            {
              taskId: error.taskId,
              number: error.pullRequest.number,
              htmlUrl: error.pullRequest.htmlUrl,
            },
          ],
    ),
    issuesCommented: iterations.flatMap(({ taskId, outcome }) =>
      outcome?.comment === undefined ? [] : [{ taskId, ...outcome.comment }],
    ),
    tokens: {
      input: sum(errors.map((error) => error.tokens.input)),
      output: sum(errors.map((error) => error.tokens.output)),
    },
    costUsd: sum(errors.map((error) => error.costUsd)),
    errors,
  };
}

/** One error: its latest investigation decides; tokens and cost count every attempt. */
function reportedError(
  error: RunInvestigation['errors'][number],
  iterations: readonly ReportedIteration[],
): ReportedError {
  const investigated = iterations.filter((iteration) => iteration.investigation !== undefined);
  const latest = investigated.at(-1);
  const figures = investigated.map((iteration) => passFigures(iteration.investigation!));
  const base = {
    taskId: error.taskId,
    source: error.source,
    fingerprint: error.fingerprint,
    passes: latest?.investigation?.passes.length ?? 0,
    secondPass: figures.at(-1)?.secondPass ?? false,
    correction: latest?.investigation?.correction ?? { attempted: false, succeeded: false },
    tokens: {
      input: sum(figures.map((figure) => figure.tokens.input)),
      output: sum(figures.map((figure) => figure.tokens.output)),
    },
    costUsd: sum(figures.map((figure) => figure.costUsd)),
  };
  if (latest?.investigation === undefined)
    return {
      ...base,
      whyNoPullRequest:
        iterations.length === 0
          ? 'the run ended before it was investigated'
          : 'no iteration reported an investigation of it (its runner failed)',
    };
  const found = latest.investigation;
  const analysis = figures.at(-1)?.analysis;
  const { outcome } = latest;
  return {
    ...base,
    verdict: found.verdict,
    ...(analysis === undefined
      ? {}
      : { confidence: analysis.confidence, rootCause: analysis.rootCause }),
    ...(outcome?.pullRequest === undefined ? {} : { pullRequest: outcome.pullRequest }),
    ...(outcome?.comment === undefined ? {} : { commentUrl: outcome.comment.htmlUrl }),
    ...(outcome?.outcome === 'opened' ? {} : { whyNoPullRequest: whyNone(found, outcome) }),
  };
}

function whyNone(found: InvestigationResult, outcome: FixPullRequestOutcome | undefined): string {
  if (outcome?.reason) return outcome.reason;
  if (found.verdict !== 'fix-verified') return whyNoFix(found);
  return 'the pull-request step did not finish (see the run’s failure or its log)';
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
