/** An investigate run's report, figured from its iterations' results and pull-request outcomes. */
import { describe, expect, it } from 'vitest';
import { investigationReport } from '../../lambdas/core/investigate/investigation-report.js';
import { InvestigationReportSchema } from '../../lambdas/core/schemas/investigation-report.js';
import {
  makeInvestigationResult,
  makePass,
  makeRunInvestigation,
} from '../support/investigation-records.js';

const ERRORS = ['ERR-a', 'ERR-b', 'ERR-c', 'ERR-d'].map((taskId, index) => ({
  taskId,
  source: 'sentry' as const,
  fingerprint: `fp-${index}`,
  score: 4 - index,
}));
const low = makePass({
  changedFiles: [],
  analysis: { ...makePass().analysis!, confidence: 'low' },
});

describe('Function: investigationReport', () => {
  it('counts errors, second passes, corrections, pull requests, comments, tokens and cost', () => {
    // Prepare: a fixed error (after a second pass), one fixed by its correction whose pull
    // request hit the cap, one without a fix (commented), and one never reached
    const report = investigationReport('run-7', makeRunInvestigation({ errors: ERRORS }), [
      {
        iteration: 1,
        taskId: 'ERR-a',
        investigation: makeInvestigationResult({
          passes: [low, makePass({ pass: 2 })],
          chosenPass: 2,
        }),
        outcome: {
          runId: 'run-7',
          iteration: 1,
          taskId: 'ERR-a',
          verdict: 'fix-verified',
          outcome: 'opened',
          pullRequest: { number: 12, htmlUrl: 'https://github.example/pull/12', draft: true },
        },
      },
      {
        iteration: 2,
        taskId: 'ERR-b',
        investigation: makeInvestigationResult({
          passes: [makePass(), makePass({ pass: 2, kind: 'correction', costUsd: 0.1 })],
          correction: { attempted: true, succeeded: true },
        }),
        outcome: {
          runId: 'run-7',
          iteration: 2,
          taskId: 'ERR-b',
          verdict: 'fix-verified',
          outcome: 'refused',
          reason: 'the cap is 1',
        },
      },
      {
        iteration: 3,
        taskId: 'ERR-c',
        investigation: makeInvestigationResult({
          verdict: 'no-fix',
          summary: 'needs a schema change',
          passes: [low, { ...low, pass: 2 }],
          chosenPass: 2,
          fix: undefined,
        }),
        outcome: {
          runId: 'run-7',
          iteration: 3,
          taskId: 'ERR-c',
          verdict: 'no-fix',
          outcome: 'not-fixed',
          reason: 'no pass made a fix: needs a schema change',
          comment: { issueNumber: 7, htmlUrl: 'https://github.example/issues/7#c1' },
        },
      },
    ]);

    // Assess
    expect(InvestigationReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      runId: 'run-7',
      errorsAnalysed: 3,
      secondPasses: 2,
      corrections: { attempted: 1, succeeded: 1 },
      pullRequestsOpened: [
        { taskId: 'ERR-a', number: 12, htmlUrl: 'https://github.example/pull/12' },
      ],
      issuesCommented: [
        { taskId: 'ERR-c', issueNumber: 7, htmlUrl: 'https://github.example/issues/7#c1' },
      ],
      tokens: { input: 6000, output: 1200 },
    });
    expect(report.costUsd).toBeCloseTo(0.2);
    expect(
      report.errors.map((error) => [error.taskId, error.verdict, error.whyNoPullRequest]),
    ).toEqual([
      ['ERR-a', 'fix-verified', undefined],
      ['ERR-b', 'fix-verified', 'the cap is 1'],
      ['ERR-c', 'no-fix', 'no pass made a fix: needs a schema change'],
      ['ERR-d', undefined, 'the run ended before it was investigated'],
    ]);
    expect(report.errors[2]).toMatchObject({ confidence: 'low', secondPass: true, passes: 2 });
  });

  it('says when an error’s runner failed, and counts every attempt’s tokens', () => {
    // Act
    const report = investigationReport(
      'run-8',
      makeRunInvestigation({ errors: ERRORS.slice(0, 1) }),
      [
        { iteration: 1, taskId: 'ERR-a' },
        {
          iteration: 2,
          taskId: 'ERR-a',
          investigation: makeInvestigationResult({
            verdict: 'fix-failed-gates',
            broken: ['test'],
            fix: undefined,
          }),
        },
        { iteration: 3, taskId: 'ERR-a' },
      ],
    );

    // Assess
    expect(report.errorsAnalysed).toBe(1);
    expect(report.errors[0]).toMatchObject({
      verdict: 'fix-failed-gates',
      whyNoPullRequest: 'the fix broke test',
      tokens: { input: 1000, output: 200 },
    });

    const never = investigationReport(
      'run-9',
      makeRunInvestigation({ errors: ERRORS.slice(0, 1) }),
      [{ iteration: 1, taskId: 'ERR-a' }],
    );
    expect(never.errors[0]?.whyNoPullRequest).toBe(
      'no iteration reported an investigation of it (its runner failed)',
    );
    expect(never.errorsAnalysed).toBe(0);
  });
});
