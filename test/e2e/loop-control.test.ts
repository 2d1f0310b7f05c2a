import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { resumeRun } from '../../lambdas/core/steps/lifecycle.js';
import type { IterationPlan } from '../../lambdas/core/schemas/plan.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { jsonOf } from '../support/cli.js';
import { git, makePrd } from '../support/git-repo.js';
import { iterationArtefact, usePhasedStack } from '../support/loop-control-stack.js';
import {
  readRun,
  runToEnd,
  submitLocalRun,
  waitUntil,
  type RunSnapshot,
} from '../support/local-runs.js';

/** What loop control decided after each iteration, read off the stored records. */
const modes = (iterations: readonly IterationRecord[]) => iterations.map((it) => it.mode);
const verdicts = (iterations: readonly IterationRecord[]) =>
  iterations.map((it) => it.control?.verdict.verdict);
const levels = (iterations: readonly IterationRecord[]) =>
  iterations.map((it) => it.control?.stagnation.level);

/**
 * Whole runs through the local stack with scripted agents and gates, one per pathology of
 * the loop-control design (shared/design/ralph-loop-enhancements.md §1.2, §1.4, §1.5):
 * nothing of ours is a double, the scripts only play a stuck or regressing agent.
 */
describe('Loop control: pathologies end or steer the run', () => {
  const phased = usePhasedStack('ralph-loop-control');

  describe('no changes at all: debug mode, then abort at critical with diagnostics', () => {
    let done: RunSnapshot;
    let prompts: string[];
    let plans: IterationPlan[];
    let shown: { run: RunRecord; iterations: IterationRecord[] };

    beforeAll(async () => {
      // Prepare: an agent that changes nothing; the threshold of 2 puts warning at 2,
      // elevated at 4, critical at 6. The failure limits sit above 6 so that stagnation
      // is what stops the run; the repeating-error rule (RESET, built elsewhere) is kept
      // out of the way, since "no changes" is the same error every time.
      const prd = makePrd(1);
      const repo = await phased.repo(prd);

      // Act
      ({ done, prompts, plans } = await phased.withStack(async (stack) => {
        const runId = await submitLocalRun(stack, {
          repo,
          prd,
          config: {
            agent: { command: 'cat > /dev/null' },
            limits: { maxIterations: 12, maxConsecutiveFailures: 12 },
            control: {
              loop: { stagnationThreshold: 2 },
              supervisor: { resetAtRepeatingError: 100 },
            },
          },
        });
        const snapshot = await runToEnd(stack, runId);
        const numbers = snapshot.iterations.map((it) => it.iteration);
        return {
          done: snapshot,
          prompts: await Promise.all(
            numbers.map((n) => iterationArtefact(stack, runId, n, 'prompt.md')),
          ),
          plans: await Promise.all(
            numbers.map(
              async (n) =>
                JSON.parse(await iterationArtefact(stack, runId, n, 'plan.json')) as IterationPlan,
            ),
          ),
        };
      }));
      shown = jsonOf(await phased.cli('show', done.run.runId, '--json'));
    });

    it('switches to the debugger once the warning level is reached, and says why in the prompt', () => {
      // Assess: the stagnation count rises by one per iteration; iteration 3 is the first
      // planned after the warning (reached by iteration 2).
      expect(done.iterations.map((it) => it.outcome)).toEqual(Array(6).fill('no_changes'));
      expect(done.iterations.map((it) => it.control?.stagnation.count)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(levels(done.iterations)).toEqual([
        'none',
        'warning',
        'warning',
        'elevated',
        'elevated',
        'critical',
      ]);
      expect(modes(done.iterations).slice(0, 4)).toEqual([
        'implementer',
        'implementer',
        'debugger',
        'debugger',
      ]);
      expect(done.iterations.map((it) => it.control?.mode)).toEqual(modes(done.iterations));

      // Below the warning: the implementer's role, no anti-pattern section.
      expect(prompts[1]).toContain('## Your role: implementer');
      expect(prompts[1]).not.toContain('Anti-pattern');
      // At the warning: the debugger's role and what repeats, with the numbers.
      expect(plans[2]!.control).toMatchObject({
        mode: 'debugger',
        why: 'stagnation warning: 2 iterations without progress',
      });
      expect(prompts[2]).toContain('## Your role: debugger');
      expect(prompts[2]).toContain('You are the DEBUGGER for this iteration.');
      expect(prompts[2]).toContain('## Anti-pattern detected: stagnation (warning)');
      expect(prompts[2]).toContain(
        '2 iterations in a row without progress, warning: switching to the debugger (warning at 2, elevated at 4, critical at 6)',
      );
      expect(prompts[4]).toContain('## Anti-pattern detected: stagnation (elevated)');
    });

    it('aborts at critical with the count and the diagnostics in the stop reason', () => {
      expect(done.run.status).toBe('aborted');
      const reason = done.run.stopReason ?? '';
      expect(reason).toMatch(/^stagnation critical: 6 iterations without progress \(/);
      expect(reason).toContain('6 iterations in a row without progress, critical: aborting');
      expect(reason).toContain('6 iterations in a row made no meaningful change');
      expect(reason).toContain('without changing anything" occurred 6 times');
      expect(reason).toMatch(/; 0 of 1 stories pass$/);
      expect(done.run.control?.stagnation).toMatchObject({ level: 'critical', iteration: 6 });
      expect(done.run.control?.history).toHaveLength(6);
    });

    it('`ralph show RUN --json` exposes each iteration’s verdict and stagnation', () => {
      expect(shown.run.status).toBe('aborted');
      expect(verdicts(shown.iterations)).toEqual(Array(6).fill('PROCEED'));
      expect(levels(shown.iterations)).toEqual(levels(done.iterations));
      expect(shown.iterations[5]!.control?.stagnation.diagnostics.summary).toContain(
        'critical: aborting',
      );
      expect(shown.iterations[0]!.control?.verdict.reason).toMatch(/^healthy: /);
    });

    // The design's levels escalate (§1.2): the debugger ordered at the warning stays while
    // stagnation worsens. plan-control.ts switches only on `stagnation.switchTo`, which
    // stagnationLevel sets at the warning level alone, so at elevated (iterations 5, 6)
    // the plan falls back to the implementer (and that switch back counts as a mode
    // return for the oscillation rule).
    it('stays in the debugger above the warning level', () => {
      expect(modes(done.iterations).slice(4)).toEqual(['debugger', 'debugger']);
    });
  });

  it('the warning threshold pauses the run; after the review, `resume` finishes it', async () => {
    // Prepare: an advisory lint gate printing eslint's summary, 20 warnings on story 1 (at
    // the limit), 21 on story 2 (above), 2 once the reviewer has fixed the lint setup;
    // it fails as `eslint --max-warnings 0` does, which an advisory gate may.
    const fixed = join(phased.scratch(), 'lint-fixed');
    const lint = [
      `if [ -f "${fixed}" ]; then n=2`,
      'elif [ -f US-002.txt ]; then n=21',
      'else n=20; fi',
      'echo "src/index.ts"',
      'echo "  1:1  warning  Unexpected console statement  no-console"',
      'echo "✖ $n problems (0 errors, $n warnings)"',
      'exit 1',
    ].join('\n');
    const prd = makePrd(4);
    const repo = await phased.repo(prd, { 'scripts/lint.sh': `${lint}\n` });

    // Act 1
    const paused = await phased.withStack(async (stack) => {
      const runId = await submitLocalRun(stack, {
        repo,
        prd,
        config: {
          agent: { command: 'cat > /dev/null; echo done > "$RALPH_STORY_ID.txt"' },
          gates: [{ name: 'lint', command: 'sh scripts/lint.sh', blocking: false }],
          // The failing advisory gate and its warnings are review findings; this test is
          // about the supervisor's pause, so stories complete without a review iteration.
          control: { quality: { maxReviewIterations: 0 } },
        },
      });
      return runToEnd(stack, runId);
    });

    // Assess 1: both changes counted (the gate is advisory), its counts still heard.
    expect(paused.iterations.map((it) => it.outcome)).toEqual(['passed', 'passed']);
    expect(paused.iterations[1]!.gates[0]).toMatchObject({
      name: 'lint',
      blocking: false,
      passed: false,
    });
    expect(paused.iterations[0]!.control?.verdict).toMatchObject({
      verdict: 'PROCEED',
      rule: 'healthy',
    });
    expect(paused.iterations[0]!.control?.verdict.reason).toContain('20 warnings');
    expect(paused.iterations[1]!.control?.verdict).toEqual({
      verdict: 'PAUSE',
      rule: 'too_many_warnings',
      reason: '21 warnings, more than 20: review before going on',
    });
    expect(paused.run.status).toBe('paused');
    expect(paused.run.stopReason).toBe(
      'supervisor: PAUSE (21 warnings, more than 20: review before going on): review, then resume; 2 of 4 stories pass',
    );

    // Act 2: the reviewer fixes the warnings, then resumes.
    await writeFile(fixed, '');
    const done = await phased.withStack(async (stack) => {
      await resumeRun({ ...stack.deps, executions: stack.executions }, paused.run.runId);
      return runToEnd(stack, paused.run.runId);
    });

    // Assess 2
    expect(done.run).toMatchObject({ status: 'completed', segment: 2, storiesPassed: 4 });
    expect(done.iterations.map((it) => [it.segment, it.outcome])).toEqual([
      [1, 'passed'],
      [1, 'passed'],
      [2, 'passed'],
      [2, 'passed'],
    ]);
    expect(verdicts(done.iterations)).toEqual(['PROCEED', 'PAUSE', 'PROCEED', 'PROCEED']);
    expect(done.iterations[2]!.control?.verdict.reason).toContain('2 warnings');

    // The verdict and its reason, as a person reads them.
    const iteration = await phased.cli('show', paused.run.runId, '--iteration', '2');
    expect(iteration.exitCode, iteration.stderr).toBe(0);
    expect(stripVTControlCharacters(iteration.stdout)).toContain(
      'supervisor  PAUSE: 21 warnings, more than 20: review before going on',
    );
  });

  it('mode oscillation: compile failures and empty debugging turns abort the run', async () => {
    // Prepare: on the one task, the implementer (odd iterations) breaks the build with a
    // new file each time, so each error is its own; the debugger it is sent to (even
    // iterations) finds nothing to change, which is no compile or test failure, so the
    // implementer comes back. Each return to a mode the task already used is a
    // back-and-forth switch; the limit of 2 is lowered from 4 so that the run stops at
    // the 3rd (iteration 5) before "no changes" could repeat often enough for RESET.
    const agent = [
      'cat > /dev/null',
      'if [ $((RALPH_ITERATION % 2)) -eq 1 ]; then',
      '  mkdir -p src',
      `  echo "export const n: number = 'attempt';" > "src/attempt_$RALPH_ITERATION.ts"`,
      'fi',
    ].join('\n');
    const typecheck = [
      'status=0',
      'for file in src/*.ts; do',
      '  [ -f "$file" ] || continue',
      `  echo "$file(1,14): error TS2322: Type 'string' is not assignable to type 'number'."`,
      '  status=2',
      'done',
      'exit $status',
    ].join('\n');
    const prd = makePrd(1);
    const repo = await phased.repo(prd, {
      'scripts/agent.sh': `${agent}\n`,
      'scripts/typecheck.sh': `${typecheck}\n`,
    });

    // Act
    const done = await phased.withStack(async (stack) => {
      const runId = await submitLocalRun(stack, {
        repo,
        prd,
        config: {
          agent: { command: 'sh scripts/agent.sh' },
          gates: [{ name: 'typecheck', command: 'sh scripts/typecheck.sh' }],
          limits: { maxIterations: 12, maxConsecutiveFailures: 12 },
          control: { supervisor: { abortAboveModeSwitches: 2 } },
        },
      });
      return runToEnd(stack, runId);
    });

    // Assess
    expect(done.iterations.map((it) => it.outcome)).toEqual([
      'gates_failed',
      'no_changes',
      'gates_failed',
      'no_changes',
      'gates_failed',
    ]);
    expect(modes(done.iterations)).toEqual([
      'implementer',
      'debugger',
      'implementer',
      'debugger',
      'implementer',
    ]);
    // Two returns (iteration 4) is the limit itself: the supervisor lets it go on.
    expect(verdicts(done.iterations)).toEqual([
      'PROCEED',
      'PROCEED',
      'PROCEED',
      'PROCEED',
      'ABORT',
    ]);
    expect(done.iterations[3]!.control?.verdict.reason).toContain('2 back-and-forth mode switches');
    expect(done.iterations[4]!.control?.verdict).toEqual({
      verdict: 'ABORT',
      rule: 'mode_oscillation',
      reason: 'the mode switched back and forth 3 times, more than 2',
    });
    expect(done.run.status).toBe('aborted');
    expect(done.run.stopReason).toBe(
      'supervisor: ABORT (the mode switched back and forth 3 times, more than 2); 0 of 1 stories pass',
    );
  });

  it('tests regressing below half passing: the supervisor aborts, in the record and in `ralph show`', async () => {
    // Prepare: a test gate printing vitest's summary: 10 of 10 pass on story 1; on story
    // 2, the first attempt leaves 5 of 10 (exactly the 50% limit), the second 4 of 10.
    const test = [
      'if [ ! -f US-002.txt ]; then echo "      Tests  10 passed (10)"; exit 0; fi',
      'if [ "$(cat US-002.txt)" = 2 ]; then echo "      Tests  5 failed | 5 passed (10)"; exit 1; fi',
      'echo "      Tests  6 failed | 4 passed (10)"; exit 1',
    ].join('\n');
    const prd = makePrd(3);
    const repo = await phased.repo(prd, { 'scripts/test.sh': `${test}\n` });

    // Act
    const done = await phased.withStack(async (stack) => {
      const runId = await submitLocalRun(stack, {
        repo,
        prd,
        config: {
          agent: { command: 'cat > /dev/null; echo "$RALPH_ITERATION" > "$RALPH_STORY_ID.txt"' },
          gates: [{ name: 'test', command: 'sh scripts/test.sh' }],
        },
      });
      return runToEnd(stack, runId);
    });

    // Assess: the stored records.
    expect(done.iterations.map((it) => it.outcome)).toEqual([
      'passed',
      'gates_failed',
      'gates_failed',
    ]);
    expect(modes(done.iterations)).toEqual(['implementer', 'implementer', 'debugger']);
    // Measured against the last passing code: 10 passing tests.
    expect(done.iterations.map((it) => it.control?.signals.testsPassingDelta)).toEqual([
      undefined,
      -5,
      -6,
    ]);
    expect(verdicts(done.iterations)).toEqual(['PROCEED', 'PROCEED', 'ABORT']);
    expect(done.iterations[1]!.control?.verdict.reason).toContain('test pass rate 50%');
    expect(done.iterations[2]!.control?.verdict).toEqual({
      verdict: 'ABORT',
      rule: 'low_pass_rate',
      reason: 'test pass rate 40% is below 50%',
    });
    expect(done.run.status).toBe('aborted');
    expect(done.run.stopReason).toBe(
      'supervisor: ABORT (test pass rate 40% is below 50%); 1 of 3 stories pass',
    );

    // Assess: what `ralph show` prints.
    const runId = done.run.runId;
    const run = await phased.cli('show', runId);
    expect(run.exitCode, run.stderr).toBe(0);
    const runText = stripVTControlCharacters(run.stdout);
    expect(runText).toMatch(
      /^reason +supervisor: ABORT \(test pass rate 40% is below 50%\); 1 of 3 stories pass$/m,
    );
    expect(runText).toMatch(/^│ 2 +│ implementer +│.*│ PROCEED \(healthy\) +│/m);
    expect(runText).toMatch(/^│ 3 +│ debugger +│.*│ ABORT \(low_pass_rate\) +│/m);
    // Every decision other than PROCEED is listed with its reason under the table.
    expect(runText).toMatch(/^#3 supervisor ABORT: test pass rate 40% is below 50%$/m);
    expect(runText).not.toMatch(/^#2 supervisor /m);
    const second = stripVTControlCharacters(
      (await phased.cli('show', runId, '--iteration', '2')).stdout,
    );
    expect(second).toMatch(/^supervisor {2}PROCEED: healthy: test pass rate 50%, /m);
    const third = stripVTControlCharacters(
      (await phased.cli('show', runId, '--iteration', '3')).stdout,
    );
    expect(third).toMatch(/^supervisor {2}ABORT: test pass rate 40% is below 50%$/m);
    expect(third).toMatch(/^mode {8}debugger$/m);
  });

  it('tests regressing (rollback): back to the checkpoint, the story done again, the run completes', async () => {
    // Prepare: an advisory test gate printing the vitest summary the agent leaves in
    // test-summary.txt (a commit with failing tests still counts): 10 of 10 pass on story 1
    // (the first checkpoint); story 2's first attempt (iteration 2) leaves 7 of 10, 0.3
    // below the checkpoint's pass rate (more than 0.2: a rollback) and above the
    // supervisor's 50%; its second attempt, from the checkpoint, passes all 10. The agent
    // of iteration 3 waits for `release`, so the run's state after iteration 2 can be read.
    const release = join(phased.scratch(), 'rollback-release');
    const agent = [
      'cat > /dev/null',
      `if [ "$RALPH_ITERATION" = 3 ]; then`,
      `  i=0; while [ ! -f "${release}" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done`,
      'fi',
      'echo "$RALPH_ITERATION" > "$RALPH_STORY_ID.txt"',
      'if [ "$RALPH_ITERATION" = 2 ]; then',
      '  echo "      Tests  3 failed | 7 passed (10)" > test-summary.txt',
      'else',
      '  echo "      Tests  10 passed (10)" > test-summary.txt',
      'fi',
    ].join('\n');
    const test = [
      'cat test-summary.txt',
      'if grep -q failed test-summary.txt; then exit 1; fi',
    ].join('\n');
    const prd = makePrd(2);
    const repo = await phased.repo(prd, {
      'scripts/agent.sh': `${agent}\n`,
      'scripts/test.sh': `${test}\n`,
    });
    const base = await git(repo, 'rev-parse', 'HEAD');

    // Act
    const { done, afterRegression, plans } = await phased.withStack(async (stack) => {
      const runId = await submitLocalRun(stack, {
        repo,
        prd,
        config: {
          agent: { command: 'sh scripts/agent.sh' },
          gates: [{ name: 'test', command: 'sh scripts/test.sh', blocking: false }],
        },
      });
      await waitUntil(
        async () => (await stack.deps.runs.getRun(runId))?.lastRecordedIteration === 2,
      );
      const held = await readRun(stack, runId);
      await writeFile(release, '');
      const snapshot = await runToEnd(stack, runId);
      return {
        done: snapshot,
        afterRegression: held,
        plans: await Promise.all(
          snapshot.iterations.map(
            async ({ iteration }) =>
              JSON.parse(
                await iterationArtefact(stack, runId, iteration, 'plan.json'),
              ) as IterationPlan,
          ),
        ),
      };
    });
    const runId = done.run.runId;
    const [first, regressed, redone] = done.iterations;
    const checkpointTag = `ralph/checkpoint/${runId}/1`;

    // Assess: every change counted; the regression is the commit of iteration 2.
    expect(done.iterations.map((it) => it.outcome)).toEqual(['passed', 'passed', 'passed']);
    expect(regressed!.gates[0]).toMatchObject({ name: 'test', blocking: false, passed: false });
    expect(verdicts(done.iterations)).toEqual(['PROCEED', 'PROCEED', 'PROCEED']);
    expect(regressed!.control?.verdict.reason).toContain('test pass rate 70%');

    // The checkpoint of iteration 1, and the reset it asks for after iteration 2: both
    // stories complete then, yet the run goes on.
    const checkpoint = {
      tag: checkpointTag,
      iteration: 1,
      commit: first!.commit,
      quality: { testsPassed: 10, testsTotal: 10, passRate: 1, warnings: 0, storiesComplete: 1 },
    };
    expect(afterRegression.run.status).toBe('running');
    expect(afterRegression.run.control?.checkpoints).toEqual([expect.objectContaining(checkpoint)]);
    expect(afterRegression.run.control?.reset).toEqual({
      after: 2,
      checkpoint: expect.objectContaining(checkpoint),
      reason: expect.stringMatching(/^quality fell below checkpoint 1: pass rate 1 → 0\.7 /),
    });
    const reason = afterRegression.run.control?.reset?.reason;

    // Iteration 2's plan creates the tag; iteration 3's resets the branch to it.
    expect(plans[1]!.checkpoints).toEqual({
      create: [{ tag: checkpointTag, commit: first!.commit }],
      drop: [],
    });
    expect(plans[2]!.checkpoints).toEqual({
      create: [],
      drop: [],
      resetTo: { tag: checkpointTag, commit: first!.commit, reason },
    });
    // Story 2 is open again, and is what iteration 3 works on.
    expect(plans[2]!.story.id).toBe('US-002');
    expect(plans[2]!.storiesRemaining).toBe(1);
    expect(done.iterations.map((it) => it.taskId)).toEqual(['US-001', 'US-002', 'US-002']);

    // The repository: the checkpoint ref, the discarded commit kept, the branch rebuilt.
    expect(await git(repo, 'rev-parse', `refs/${checkpointTag}`)).toBe(first!.commit);
    // Not a tag: `git push --tags` must not publish checkpoints.
    expect(await git(repo, 'tag', '--list')).toBe('');
    expect(
      await git(repo, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/ralph/reset'),
    ).toBe(`refs/ralph/reset/${runId}/3 ${regressed!.commit}`);
    expect(await git(repo, 'log', '-1', '--format=%P %s', regressed!.commit ?? 'HEAD@{none}')).toBe(
      `${first!.commit} feat: US-002 - Story 2`,
    );
    const history = await git(
      repo,
      'log',
      '--reverse',
      '--format=%H %s',
      `${base}..${prd.branchName}`,
    );
    expect(history.split('\n')).toEqual([
      expect.stringMatching(/^[0-9a-f]{40} chore\(ralph\): start ralph\/demo$/),
      `${first!.commit} feat: US-001 - Story 1`,
      `${redone!.commit} feat: US-002 - Story 2`,
    ]);
    expect(await git(repo, 'show', `${prd.branchName}:test-summary.txt`)).toContain(
      'Tests  10 passed (10)',
    );

    // The run completes with both stories passing, from a clean control history.
    expect(done.run).toMatchObject({ status: 'completed', storiesPassed: 2 });
    expect(done.tasks.map((task) => [task.taskId, task.status])).toEqual([
      ['US-001', 'complete'],
      ['US-002', 'complete'],
    ]);
    expect(done.run.control?.reset).toBeUndefined();
    expect(done.run.control?.history.map((entry) => entry.iteration)).toEqual([3]);
  });

  it('the same error repeated: the supervisor RESETs to the checkpoint, the history restarts', async () => {
    // Prepare: a blocking typecheck gate that fails with the same error while the agent's
    // change has broken.txt: story 1 passes (the first checkpoint); story 2's first two
    // attempts (iterations 2, 3) break it, the third fixes it. One repeat resets
    // (lowered from 2, so that the second failure is the RESET), well within the limit
    // of 5 consecutive failures.
    const agent = [
      'cat > /dev/null',
      'echo "$RALPH_ITERATION" > "$RALPH_STORY_ID.txt"',
      'if [ "$RALPH_ITERATION" = 2 ] || [ "$RALPH_ITERATION" = 3 ]; then echo broken > broken.txt; fi',
    ].join('\n');
    const typecheck = [
      'if [ -f broken.txt ]; then',
      `  echo "src/story.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'."`,
      '  exit 2',
      'fi',
    ].join('\n');
    const prd = makePrd(2);
    const repo = await phased.repo(prd, {
      'scripts/agent.sh': `${agent}\n`,
      'scripts/typecheck.sh': `${typecheck}\n`,
    });

    // Act
    const { done, plans } = await phased.withStack(async (stack) => {
      const runId = await submitLocalRun(stack, {
        repo,
        prd,
        config: {
          agent: { command: 'sh scripts/agent.sh' },
          gates: [{ name: 'typecheck', command: 'sh scripts/typecheck.sh' }],
          control: { supervisor: { resetAtRepeatingError: 1 } },
        },
      });
      const snapshot = await runToEnd(stack, runId);
      return {
        done: snapshot,
        plans: await Promise.all(
          snapshot.iterations.map(
            async ({ iteration }) =>
              JSON.parse(
                await iterationArtefact(stack, runId, iteration, 'plan.json'),
              ) as IterationPlan,
          ),
        ),
      };
    });
    const runId = done.run.runId;
    const checkpointTag = `ralph/checkpoint/${runId}/1`;
    const first = done.iterations[0]!;

    // Assess: the second failure of the same error is the RESET.
    expect(done.iterations.map((it) => it.outcome)).toEqual([
      'passed',
      'gates_failed',
      'gates_failed',
      'passed',
    ]);
    expect(verdicts(done.iterations)).toEqual(['PROCEED', 'PROCEED', 'RESET', 'PROCEED']);
    expect(done.iterations[2]!.control?.verdict).toEqual({
      verdict: 'RESET',
      rule: 'repeating_error',
      reason: expect.stringMatching(/^the same error repeated 1 times \(limit 1\): "/),
    });

    // Iteration 4 starts from the latest checkpoint (where the branch already is).
    expect(plans[3]!.checkpoints).toEqual({
      create: [],
      drop: [],
      resetTo: {
        tag: checkpointTag,
        commit: first.commit,
        reason: `supervisor: ${done.iterations[2]!.control?.verdict.reason}`,
      },
    });
    expect(await git(repo, 'rev-parse', `refs/${checkpointTag}`)).toBe(first.commit);
    expect(await git(repo, 'for-each-ref', 'refs/ralph/reset')).toBe('');
    expect(await git(repo, 'rev-parse', `${done.iterations[3]!.commit}^`)).toBe(first.commit);

    // The history restarted with iteration 4: the errors before the reset no longer
    // count, so the fix is not reset again and the run completes.
    expect(done.iterations.map((it) => it.control?.stagnation.count)).toEqual([0, 1, 2, 0]);
    expect(done.run.control?.history.map((entry) => entry.iteration)).toEqual([4]);
    expect(done.iterations[3]!.control?.verdict.reason).toMatch(/^healthy: /);
    expect(done.run).toMatchObject({
      status: 'completed',
      storiesPassed: 2,
      consecutiveFailures: 0,
    });

    // The verdict, as a person reads it.
    const shown = await phased.cli('show', runId, '--iteration', '3');
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(stripVTControlCharacters(shown.stdout)).toMatch(
      /^supervisor {2}RESET: the same error repeated 1 times \(limit 1\): ".+"$/m,
    );
  });
});
