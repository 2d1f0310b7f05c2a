import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { InvestigationResultSchema } from '../../lambdas/core/schemas/investigation.js';
import { git } from '../support/git-repo.js';
import {
  BROKEN_FIX,
  BUGGY_CART,
  FIXED_CART,
  investigateScenario,
  makeErrorGroup,
} from '../support/investigate-scenario.js';
import {
  artefact,
  storedResult,
  useRunnerScenarios,
  type RunnerStores,
} from '../support/runner-scenario.js';

let stores: RunnerStores;
useRunnerScenarios((ready) => (stores = ready));

const HIGH = {
  rootCause: 'total() reads discount.percent when no discount is given',
  confidence: 'high',
  reasoning: 'the frame at src/cart.mjs:3 dereferences an optional argument',
  filesExamined: ['src/cart.mjs', 'src/checkout.mjs'],
  patternsDiscovered: ['optional arguments are not defaulted in src/'],
  suggestedNextSteps: [],
  fixSummary: 'default a missing discount to 0 %',
};

describe('Function: runIteration — an investigate run', () => {
  it('commits a confident first fix that keeps the gates passing on the fix branch', async () => {
    // Prepare
    const { runId, repo, deps, taskIds, groups } = await investigateScenario(stores, {
      script: { '*': { 'analysis-1': { analysis: HIGH, files: { 'src/cart.mjs': FIXED_CART } } } },
    });
    const base = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const taskId = taskIds[0] ?? '';
    const branch = `ralph/fix/${taskId.replace(/^ERR-/, '')}`;
    expect(result.outcome).toBe('passed');
    expect(result.commit).toBeUndefined();
    const investigation = result.investigation;
    expect(investigation?.verdict).toBe('fix-verified');
    expect(investigation?.passes).toHaveLength(1);
    expect(investigation?.passes[0]?.analysis?.rootCause).toBe(HIGH.rootCause);
    expect(investigation?.passes[0]?.changedFiles).toEqual(['src/cart.mjs']);
    expect(investigation?.chosenPass).toBe(1);
    expect(investigation?.correction).toEqual({ attempted: false, succeeded: false });
    // The changelog gate failed before and after: it does not count against the fix.
    expect(investigation?.gatesBefore.map((gate) => [gate.name, gate.passed])).toEqual([
      ['test', true],
      ['changelog', false],
    ]);
    expect(investigation?.broken).toEqual([]);
    expect(investigation?.fix?.branch).toBe(branch);
    expect(investigation?.fix?.pushedRef).toBeUndefined();
    const fixCommit = investigation?.fix?.commit ?? '';
    expect(await git(repo, 'rev-parse', branch)).toBe(fixCommit);
    expect(await git(repo, 'rev-parse', `${fixCommit}^`)).toBe(base);
    expect(await git(repo, 'log', '-1', '--format=%s', fixCommit)).toBe(
      `fix: ${groups[0]?.latest.title} (${taskId})`,
    );
    expect(await git(repo, 'show', `${fixCommit}:src/cart.mjs`)).toBe(FIXED_CART.trimEnd());
    expect(await git(repo, 'diff', '--name-only', base, fixCommit)).toBe('src/cart.mjs');
    // The working copy is back on main, untouched, the analysis file gone.
    expect(await git(repo, 'branch', '--show-current')).toBe('main');
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await readFile(join(repo, 'src/cart.mjs'), 'utf8')).toBe(BUGGY_CART);
    // investigation.json is the same result.
    const stored = InvestigationResultSchema.parse(
      JSON.parse(await artefact(runId, 'investigation.json')),
    );
    expect(stored).toEqual(investigation);
    expect((await storedResult(runId)).investigation).toEqual(investigation);
    expect(result.artefacts.investigation).toBe(`runs/${runId}/iterations/1/investigation.json`);
    expect(await artefact(runId, 'transcript.jsonl')).toContain('a scripted stand-in, not a model');
  });

  it('follows a low-confidence pass without a fix with a second, seeded with its findings', async () => {
    // Prepare
    const low = {
      rootCause: 'maybe checkout() passes a bad cart',
      confidence: 'low',
      reasoning: 'only looked at the caller',
      filesExamined: ['src/checkout.mjs'],
      suggestedNextSteps: ['read total() in src/cart.mjs'],
    };
    const { runId, repo, out, deps, taskIds } = await investigateScenario(stores, {
      script: {
        '*': {
          'analysis-1': { analysis: low },
          'analysis-2': { analysis: HIGH, files: { 'src/cart.mjs': FIXED_CART } },
        },
      },
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const taskId = taskIds[0] ?? '';
    const investigation = result.investigation;
    expect(investigation?.verdict).toBe('fix-verified');
    expect(
      investigation?.passes.map((pass) => [
        pass.pass,
        pass.kind,
        pass.analysis?.confidence,
        pass.changedFiles,
      ]),
    ).toEqual([
      [1, 'analysis', 'low', []],
      [2, 'analysis', 'high', ['src/cart.mjs']],
    ]);
    expect(investigation?.chosenPass).toBe(2);
    const first = await readFile(join(out, `prompt-${taskId}-analysis-1.md`), 'utf8');
    const second = await readFile(join(out, `prompt-${taskId}-analysis-2.md`), 'utf8');
    expect(first).not.toContain('## Previous pass');
    expect(second).toContain('## Previous pass (pass 1, confidence low, no fix)');
    expect(second).toContain('- Root cause hypothesis: maybe checkout() passes a bad cart');
    expect(second).toContain('- Reasoning: only looked at the caller');
    expect(second).toContain('- Files it examined: src/checkout.mjs');
    expect(second).toContain('- read total() in src/cart.mjs');
    expect(await git(repo, 'show', `${investigation?.fix?.commit ?? ''}:src/cart.mjs`)).toBe(
      FIXED_CART.trimEnd(),
    );
    // Both prompts are kept.
    expect(await artefact(runId, 'prompt.md')).toContain('pass 2 of at most 2');
  });

  it('makes a pass of an unreadable or missing analysis, with the problem in words', async () => {
    // Prepare
    const { runId, deps } = await investigateScenario(stores, {
      script: {
        '*': {
          'analysis-1': { analysis: '{"rootCause": "", "confidence": "sure"}' },
          'analysis-2': {},
        },
      },
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const investigation = result.investigation;
    expect(investigation?.verdict).toBe('no-fix');
    expect(investigation?.passes[0]?.analysis).toBeUndefined();
    expect(investigation?.passes[0]?.problem).toMatch(
      /^\.ralph\/analysis\.json is not an analysis: rootCause: .*; confidence: /,
    );
    expect(investigation?.passes[1]?.problem).toBe('the agent wrote no .ralph/analysis.json');
    expect(investigation?.summary).toMatch(/^no fix after 2 passes\. Root cause: no analysis/);
  });

  it('corrects once a fix that broke a gate which passed before, then commits it', async () => {
    // Prepare
    const { runId, repo, out, deps, taskIds } = await investigateScenario(stores, {
      script: {
        '*': {
          'analysis-1': { analysis: HIGH, files: { 'src/cart.mjs': BROKEN_FIX } },
          'correction-2': { files: { 'src/cart.mjs': FIXED_CART } },
        },
      },
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const taskId = taskIds[0] ?? '';
    const investigation = result.investigation;
    expect(investigation?.verdict).toBe('fix-verified');
    expect(investigation?.correction).toEqual({ attempted: true, succeeded: true });
    expect(investigation?.passes.map((pass) => pass.kind)).toEqual(['analysis', 'correction']);
    // The correction left the analysis as it was given.
    expect(investigation?.passes[1]?.analysis?.rootCause).toBe(HIGH.rootCause);
    expect(investigation?.chosenPass).toBe(1);
    expect(investigation?.broken).toEqual([]);
    expect(investigation?.gatesAfter.find((gate) => gate.name === 'test')?.passed).toBe(true);
    const correction = await readFile(join(out, `prompt-${taskId}-correction-2.md`), 'utf8');
    expect(correction).toContain('## Gates the fix broke: test');
    expect(correction).toContain('gate test failed (exit 1)');
    expect(correction).toContain(
      '- Root cause: total() reads discount.percent when no discount is given',
    );
    expect(correction).not.toContain('gate changelog failed');
    const commit = investigation?.fix?.commit ?? '';
    expect(await git(repo, 'show', `${commit}:src/cart.mjs`)).toBe(FIXED_CART.trimEnd());
  });

  it('keeps a fix that stays failing as evidence and commits nothing on the fix branch', async () => {
    // Prepare
    const { runId, repo, deps, taskIds } = await investigateScenario(stores, {
      script: {
        '*': {
          'analysis-1': { analysis: HIGH, files: { 'src/cart.mjs': BROKEN_FIX } },
          'correction-2': { files: { 'src/cart.mjs': `${BROKEN_FIX}// still wrong\n` } },
        },
      },
    });
    const base = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const branch = `ralph/fix/${(taskIds[0] ?? '').replace(/^ERR-/, '')}`;
    const investigation = result.investigation;
    expect(result.outcome).toBe('passed');
    expect(investigation?.verdict).toBe('fix-failed-gates');
    expect(investigation?.broken).toEqual(['test']);
    expect(investigation?.correction).toEqual({ attempted: true, succeeded: false });
    expect(investigation?.fix).toBeUndefined();
    expect(investigation?.summary).toMatch(
      /^the fix broke test and the correction did not mend it/,
    );
    expect(await git(repo, 'branch', '--list', branch)).toBe('');
    expect(await git(repo, 'rev-parse', 'main')).toBe(base);
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:src/cart.mjs`)).toBe(
      `${BROKEN_FIX}// still wrong`,
    );
    expect(await git(repo, 'rev-parse', `${result.evidenceRef ?? ''}^`)).toBe(base);
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await artefact(runId, 'diff.patch')).toContain('+// still wrong');
  });

  it('gives a later error of the run what the earlier one found', async () => {
    // Prepare
    const groups = [
      makeErrorGroup('issue:2001', 'TypeError: discount is undefined'),
      makeErrorGroup('issue:2002', 'RangeError: negative total'),
    ];
    const { runId, out, deps, taskIds, plan } = await investigateScenario(stores, {
      groups,
      script: {
        '*': { 'analysis-1': { analysis: { ...HIGH, confidence: 'medium' } } },
      },
    });
    await runIteration(deps, { runId, iteration: 1 });
    await plan(2, 1);

    // Act
    const result = await runIteration(deps, { runId, iteration: 2 });

    // Assess
    expect(result.investigation?.verdict).toBe('no-fix');
    const first = await readFile(join(out, `prompt-${taskIds[0] ?? ''}-analysis-1.md`), 'utf8');
    const second = await readFile(join(out, `prompt-${taskIds[1] ?? ''}-analysis-1.md`), 'utf8');
    expect(first).not.toContain('## Context from earlier errors in this run');
    expect(second).toContain('## Context from earlier errors in this run');
    expect(second).toContain('- optional arguments are not defaulted in src/');
    expect(second).toContain('- src/checkout.mjs');
    expect(second).toContain(
      `- ${taskIds[0] ?? ''} "TypeError: discount is undefined": total() reads discount.percent when no discount is given (confidence medium); no-fix`,
    );
  });

  it('pushes the verified fix of a clone to a private ref, not to a branch', async () => {
    // Prepare
    const { runId, repo, deps, taskIds } = await investigateScenario(stores, {
      script: { '*': { 'analysis-1': { analysis: HIGH, files: { 'src/cart.mjs': FIXED_CART } } } },
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const taskId = taskIds[0] ?? '';
    const fix = result.investigation?.fix;
    expect(result.investigation?.verdict).toBe('fix-verified');
    expect(fix?.pushedRef).toBe(`refs/ralph/fixes/${runId}/${taskId}`);
    expect(await git(repo, 'rev-parse', fix?.pushedRef ?? '')).toBe(fix?.commit);
    expect(await git(repo, 'show', `${fix?.commit ?? ''}:src/cart.mjs`)).toBe(FIXED_CART.trimEnd());
    // The branch is the pull request step's to create.
    expect(await git(repo, 'branch', '--list', fix?.branch ?? '')).toBe('');
  });
});
