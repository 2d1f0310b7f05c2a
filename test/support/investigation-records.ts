/**
 * Valid investigate-run documents for tests, each parsed with its real schema: the pull
 * request record, and the runner's `investigation` report (result.json), which the steps
 * after the runner read as an outer edge.
 */
import type { z } from 'zod';
import {
  FixPullRequestSchema,
  InvestigationResultSchema,
  RunInvestigationSchema,
  type AnalysisPass,
  type FixPullRequest,
  type InvestigationResult,
  type RunInvestigation,
} from '../../lambdas/core/schemas/investigation.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { makeGate } from './records.js';

const AT = '2026-03-02T09:00:00.000Z';
/** A commit sha the GitHub double takes (forty hex digits). */
export const FIX_COMMIT = 'c0ffee'.padEnd(40, '0');

export function makeFixPullRequest(
  overrides: Partial<z.input<typeof FixPullRequestSchema>> = {},
): FixPullRequest {
  return FixPullRequestSchema.parse({
    runId: 'run-1',
    taskId: 'ERR-1',
    iteration: 1,
    repo: { owner: 'acme', name: 'shop' },
    branch: 'ralph/fix/ab12cd34',
    base: 'main',
    commit: FIX_COMMIT,
    title: 'fix: TypeError in checkout',
    body: 'Root cause: ...',
    state: 'pending',
    createdAt: AT,
    updatedAt: AT,
    version: 1,
    ...overrides,
  });
}

export function makeRunInvestigation(
  overrides: Partial<z.input<typeof RunInvestigationSchema>> = {},
): RunInvestigation {
  return RunInvestigationSchema.parse({
    batchId: 'batch-1',
    projectId: 'shop',
    baseBranch: 'main',
    codeHost: { owner: 'acme', name: 'shop' },
    settings: {},
    errors: [{ taskId: 'ERR-1', source: 'sentry', fingerprint: 'ab12cd34ef', score: 10 }],
    ...overrides,
  });
}

/** One pass of an agent: its analysis and, with `changedFiles`, its fix. */
export function makePass(overrides: Partial<AnalysisPass> = {}): AnalysisPass {
  return {
    pass: 1,
    kind: 'analysis',
    analysis: {
      rootCause: 'cart.total() reads `price` of an item removed meanwhile',
      confidence: 'high',
      reasoning: '',
      filesExamined: ['src/cart.ts'],
      patternsDiscovered: [],
      suggestedNextSteps: [],
      fixSummary: 'skip removed items',
    },
    changedFiles: ['src/cart.ts'],
    agentExitCode: 0,
    durationMs: 1200,
    tokens: { input: 1000, output: 200 },
    costUsd: 0.02,
    ...overrides,
  };
}

export function makeInvestigationResult(
  overrides: Partial<z.input<typeof InvestigationResultSchema>> = {},
): InvestigationResult {
  return InvestigationResultSchema.parse({
    source: 'sentry',
    fingerprint: 'ab12cd34ef',
    verdict: 'fix-verified',
    summary: 'skips removed items',
    passes: [makePass()],
    chosenPass: 1,
    gatesBefore: [makeGate({ name: 'test', passed: false })],
    gatesAfter: [makeGate({ name: 'test', passed: true })],
    broken: [],
    correction: { attempted: false, succeeded: false },
    fix: { branch: 'ralph/fix/ab12cd34', commit: FIX_COMMIT },
    ...overrides,
  });
}

/** result.json of an investigate iteration, as the runner writes it. */
export function makeInvestigateIterationResult(
  investigation: InvestigationResult,
  overrides: Partial<z.input<typeof IterationResultSchema>> = {},
): IterationResult {
  return IterationResultSchema.parse({
    runId: 'run-1',
    iteration: 1,
    taskId: 'ERR-1',
    outcome: investigation.verdict === 'fix-verified' ? 'passed' : 'gates_failed',
    durations: { agentMs: 4000, gatesMs: 800, runnerMs: 200 },
    startedAt: AT,
    endedAt: AT,
    investigation,
    ...overrides,
  });
}
