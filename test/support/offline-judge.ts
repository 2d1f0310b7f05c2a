/**
 * What the offline judge's and proposer's tests share: a story and a change to judge, and
 * the design document's Pattern Proposal Prompt filled in by hand.
 */
import type { Artefact, StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import { makeGate } from './records.js';

/** A story that fails every criterion of the offline judge's story rubric. */
export const poorStory: StoryDocument = {
  id: 'story_poor',
  title: 'Improve dashboard and fix login',
  description: 'Make things better and also fix login somehow, etc.',
  acceptance_criteria: ['Works properly'],
  services: [],
  source_conversations: [],
};

/** The design document's Pattern Proposal Prompt, filled in. */
export function proposalPrompt(
  judgeScore: number,
  cheapScore: number,
  reasoning: string,
  patterns = '- user can\n- allows',
) {
  return [
    `The expensive LLM judge gave this story a score of ${judgeScore}.`,
    `The cheap pattern-based evaluator gave it ${cheapScore}.`,
    `Gap: ${judgeScore - cheapScore}`,
    '',
    'Expensive mode reasoning:',
    reasoning,
    '',
    'Cheap mode detected these signals:',
    '- good_ac',
    '',
    'Current cheap mode patterns:',
    patterns,
    '',
    'What pattern is the cheap mode MISSING that would catch what the expensive mode saw?',
    '',
    'Propose a specific, testable pattern in this format:',
    '{ "category": "...", "pattern": "...", "rationale": "..." }',
  ].join('\n');
}

/**
 * The change of a story "Export invoices" with two criteria: its diff (covering both, with
 * a test case unless `tests` is false), a passing typecheck and a test gate.
 */
export function changeOf(
  overrides: { gatesPass?: boolean; tests?: boolean; diff?: string } = {},
): Artefact {
  const { gatesPass = true, tests = true } = overrides;
  const diff =
    overrides.diff ??
    [
      'diff --git a/src/export.ts b/src/export.ts',
      '+++ b/src/export.ts',
      '+export function exportInvoices(): string { return toCsv(invoices); }',
      '+export const emptyMessage = "No invoices to export";',
      ...(tests ? ['+++ b/test/export.test.ts', "+it('exports invoices as csv', () => {});"] : []),
    ].join('\n');
  return {
    kind: 'change',
    id: 'US-001',
    story: {
      id: 'US-001',
      title: 'Export invoices',
      description: 'Accountants export invoices.',
      acceptanceCriteria: ['Export returns the invoices as CSV', 'An empty list shows a message'],
      priority: 1,
      passes: false,
    },
    diff,
    gates: [
      makeGate({ passed: true, exitCode: 0, durationMs: 5 }),
      makeGate({ name: 'test', passed: gatesPass, exitCode: gatesPass ? 0 : 1, durationMs: 5 }),
    ],
    transcriptSummary: 'Added the export.',
    filesChanged: tests ? ['src/export.ts', 'test/export.test.ts'] : ['src/export.ts'],
  };
}
