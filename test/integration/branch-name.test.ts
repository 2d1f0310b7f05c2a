import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { branchNameProblem } from '../../lambdas/core/schemas/branch-name.js';

/** Names a person might put in prd.json's branchName, good and bad. */
const NAMES = [
  'ralph/feature',
  'ralph/my-feature_2',
  'feature',
  'ralph/my feature',
  'ralph/../escape',
  'ralph/x.lock',
  'ralph/x.lock/y',
  '-ralph',
  'ralph/.hidden',
  'ralph/',
  'ralph.',
  'ralph//double',
  'ralph@{1}',
  'ralph~1',
  'ralph^',
  'ralph:x',
  'ralph?',
  'ralph*',
  'ralph[x',
  'ralph\\x',
  'ralph\tx',
  'ralph\u0001x',
  'ralph\u007fx',
  'ralph/ünicode',
  'a.b/c-d',
];

describe('Function: branchNameProblem', () => {
  it('refuses "@" alone, which check-ref-format --branch reads as a shorthand for HEAD', () => {
    expect(branchNameProblem('@')).toBe('is "@"');
  });

  it.each(NAMES)('agrees with git check-ref-format --branch on %j', async (name) => {
    // Act
    const git = await execa('git', ['check-ref-format', '--branch', name], { reject: false });
    const problem = branchNameProblem(name);

    // Assess
    expect(problem === undefined, problem ?? 'accepted').toBe(git.exitCode === 0);
  });
});
