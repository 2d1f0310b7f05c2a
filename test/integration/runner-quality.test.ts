import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { git } from '../support/git-repo.js';
import {
  NOTES_AGENT,
  scenario,
  storedGates,
  storedResult,
  useRunnerScenarios,
  vitestSummary,
} from '../support/runner-scenario.js';

useRunnerScenarios();

describe('Function: runIteration — quality enforcement', () => {
  it('fails a tests gate that exited 0 with a pass rate under minPassRate, saying why', async () => {
    // Prepare: 18 of 20 is 0.9, under the default 0.95.
    const { runId, repo, deps } = await scenario({
      agent: NOTES_AGENT,
      gates: [{ name: 'test', command: vitestSummary(2, 20) }],
    });
    const before = await git(repo, 'rev-parse', 'HEAD');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.cause).toBe(
      'blocking gate failed: test (pass rate 0.9 (18 of 20 tests passed) below quality.tests.minPassRate 0.95)',
    );
    expect(result.failureDetail).toContain('Tests  2 failed | 18 passed (20)');
    expect(result.failureDetail).toContain(
      '[ralph quality] pass rate 0.9 (18 of 20 tests passed) below quality.tests.minPassRate 0.95',
    );
    expect(result.gates).toEqual([
      expect.objectContaining({ name: 'test', exitCode: 0, passed: false }),
    ]);
    expect(result.commit).toBeUndefined();
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.review).toBeUndefined();
    expect(await storedResult(runId)).toMatchObject({ outcome: 'gates_failed' });
    expect(await storedGates(runId)).toEqual([
      expect.objectContaining({ name: 'test', passed: false }),
    ]);
    // The run branch did not move past the runner's start commit.
    const head = await git(repo, 'rev-parse', 'ralph/demo');
    expect(await git(repo, 'log', '--format=%s', '-1', head)).toMatch(/^chore\(ralph\): /);
    expect(await git(repo, 'rev-parse', `${head}^`)).toBe(before);
  });

  it('passes a pass rate exactly at minPassRate, the tolerated failure a review finding', async () => {
    // Prepare: 19 of 20 is 0.95.
    const { runId, repo, deps } = await scenario({
      agent: NOTES_AGENT,
      gates: [{ name: 'test', command: vitestSummary(1, 20) }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
    expect((await storedResult(runId)).review).toEqual({
      findings: [
        {
          kind: 'test_failures',
          gate: 'test',
          message:
            '1 test failed, tolerated by quality.tests.minPassRate 0.95: pass rate 0.95 (19 of 20 tests passed)',
        },
      ],
    });
  });

  it('passes with a failing advisory gate, which becomes a review finding in result.json', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: NOTES_AGENT,
      gates: [
        { name: 'story', command: 'test -f notes.txt' },
        { name: 'style', command: 'echo "line too long" >&2; exit 3', blocking: false },
      ],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.commit).toBeDefined();
    const stored = await storedResult(runId);
    expect(stored.review).toEqual({
      findings: [
        {
          kind: 'advisory_gate',
          gate: 'style',
          message: 'advisory gate style failed (exit code 3)',
        },
      ],
    });
    // The story met its blocking gates: prd.json says it passes, as Ralph's does.
    const prd = JSON.parse(await git(repo, 'show', 'ralph/demo:prd.json')) as Prd;
    expect(prd.userStories[0]?.passes).toBe(true);
  });

  it('fails a security gate that reports a critical vulnerability while blockOnCritical is on', async () => {
    // Prepare: the scanner exits 0 (a report-only audit).
    const { runId, deps } = await scenario({
      agent: NOTES_AGENT,
      gates: [{ name: 'audit', command: "printf '1 critical severity vulnerability\\n'" }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.cause).toBe(
      'blocking gate failed: audit (1 critical vulnerability reported; blocked by quality.security.blockOnCritical)',
    );
    expect(result.failureDetail).toContain('1 critical severity vulnerability');
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
  });

  it('passes the same security gate with blockOnCritical off, the vulnerability a finding', async () => {
    const { runId, deps } = await scenario({
      agent: NOTES_AGENT,
      gates: [{ name: 'audit', command: "printf '1 critical severity vulnerability\\n'" }],
      control: { quality: { security: { blockOnCritical: false } } },
    });

    const result = await runIteration(deps, { runId, iteration: 1 });

    expect(result.outcome).toBe('passed');
    expect((await storedResult(runId)).review).toEqual({
      findings: [
        {
          kind: 'security',
          gate: 'audit',
          message: '1 critical vulnerability reported (not blocking)',
        },
      ],
    });
  });

  it('finds source added without a test from the staged patch, and nothing once a test comes with it', async () => {
    // Prepare: one agent adds source only; the other adds its test as well.
    const sourceOnly = await scenario({
      agent:
        'cat > /dev/null; mkdir -p src; printf "export const a = 1;\\nexport const b = 2;\\n" > src/feature.ts',
      gates: [{ name: 'story', command: 'test -f src/feature.ts' }],
    });
    const withTest = await scenario({
      agent: [
        'cat > /dev/null; mkdir -p src',
        'printf "export const a = 1;\\n" > src/feature.ts',
        'printf "it(\\"works\\", () => {});\\n" > src/feature.test.ts',
      ].join('; '),
      gates: [{ name: 'story', command: 'test -f src/feature.ts' }],
    });

    // Act
    const withoutTests = await runIteration(sourceOnly.deps, {
      runId: sourceOnly.runId,
      iteration: 1,
    });
    const tested = await runIteration(withTest.deps, { runId: withTest.runId, iteration: 1 });

    // Assess
    expect(withoutTests.outcome).toBe('passed');
    expect((await storedResult(sourceOnly.runId)).review).toEqual({
      findings: [
        {
          kind: 'missing_tests',
          message:
            '2 source lines added in 1 file (src/feature.ts) and no test file changed (quality.tests.requireNewTestsForNewCode)',
        },
      ],
    });
    expect(tested.outcome).toBe('passed');
    expect(await storedResult(withTest.runId)).not.toHaveProperty('review');
  });

  it('reports no finding for untested source when requireNewTestsForNewCode is off', async () => {
    const { runId, deps } = await scenario({
      agent: 'cat > /dev/null; mkdir -p src; echo "export {};" > src/feature.ts',
      gates: [],
      control: { quality: { tests: { requireNewTestsForNewCode: false } } },
    });

    const result = await runIteration(deps, { runId, iteration: 1 });

    expect(result.outcome).toBe('passed');
    expect(await storedResult(runId)).not.toHaveProperty('review');
  });
});
