/** The words of an investigate run's pull request and issue comment (pure). */
import { describe, expect, it } from 'vitest';
import {
  analysisCommentBody,
  fixPullRequestBody,
  fixPullRequestTitle,
} from '../../lambdas/core/investigate/fix-pull-request-text.js';
import { makeGate } from '../support/records.js';
import { makeInvestigationResult, makePass } from '../support/investigation-records.js';

const ERROR = { title: 'TypeError in checkout', link: 'https://sentry.example/issues/1/' };

describe('Function: fixPullRequestTitle', () => {
  it('prefixes the error title on one line and keeps it to 100 characters', () => {
    // Act
    const short = fixPullRequestTitle('TypeError:\n  x is undefined');
    const long = fixPullRequestTitle('E'.repeat(300));

    // Assess
    expect(short).toBe('fix: TypeError: x is undefined');
    expect(long).toHaveLength(100);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('Function: fixPullRequestBody', () => {
  it('tells the error, root cause, confidence, passes, gates, tokens, cost and the run', () => {
    // Prepare
    const investigation = makeInvestigationResult({
      passes: [
        makePass({ changedFiles: [], analysis: { ...makePass().analysis!, confidence: 'low' } }),
        makePass({ pass: 2, costUsd: 0.5, tokens: { input: 2500, output: 300 } }),
        makePass({ pass: 3, kind: 'correction', costUsd: 0.25 }),
      ],
      chosenPass: 3,
      gatesBefore: [
        makeGate({ name: 'lint', passed: true }),
        makeGate({ name: 'test|unit', passed: false }),
      ],
      gatesAfter: [
        makeGate({ name: 'lint', passed: true }),
        makeGate({ name: 'test|unit', passed: true }),
      ],
      correction: { attempted: true, succeeded: true },
    });

    // Act
    const body = fixPullRequestBody({ runId: 'run-9', error: ERROR, investigation });

    // Assess
    expect(body).toContain('[TypeError in checkout](https://sentry.example/issues/1/)');
    expect(body).toContain('cart.total() reads `price`');
    expect(body).toContain('**Confidence:** high');
    expect(body).toContain('2 analysis passes: the first was not enough');
    expect(body).toContain('A correction pass was needed (the fix broke a gate): it mended it.');
    expect(body).toContain('| 3 (kept) | correction | high | 1 |');
    expect(body).toContain('| lint | passed | passed |');
    expect(body).toContain('| test\\|unit | failed | passed |');
    expect(body).toContain('4,500 input and 700 output tokens, $0.77');
    expect(body).toContain("Opened by ralph-cloud's investigate run `run-9`");
  });

  it('names the error without a link when the sender gave none', () => {
    // Act
    const body = fixPullRequestBody({
      runId: 'run-9',
      error: { title: 'Alarm high-5xx' },
      investigation: makeInvestigationResult(),
    });

    // Assess
    expect(body).toContain('Alarm high-5xx (sentry, fingerprint `ab12cd34ef`)');
    expect(body).toContain('One analysis pass was enough.');
    expect(body).toContain('No correction was needed.');
  });
});

describe('Function: analysisCommentBody', () => {
  it('says why there is no pull request: the gates the fix broke, the correction that failed', () => {
    // Prepare
    const investigation = makeInvestigationResult({
      verdict: 'fix-failed-gates',
      broken: ['test'],
      correction: { attempted: true, succeeded: false },
      gatesBefore: [makeGate({ name: 'test', passed: true })],
      gatesAfter: [makeGate({ name: 'test', passed: false })],
      fix: undefined,
    });

    // Act
    const body = analysisCommentBody({ runId: 'run-9', error: ERROR, investigation });

    // Assess
    expect(body).toContain(
      '**No pull request:** the fix broke test, and the correction did not mend it',
    );
    expect(body).toContain('| test | passed | failed |');
    expect(body).toContain("Analysed by ralph-cloud's investigate run `run-9`.");
  });
});
