/**
 * A repository with an evaluation suite for the evaluation e2e tests: fixed user stories
 * committed under `eval/stories/`, and a suite command that writes them, one JSON document
 * per input, into `$RALPH_EVAL_OUTPUT_DIR`. The documents are the same every iteration,
 * so both modes score the same artefact ids and only the pattern set (and the judge's
 * answers) move the figures.
 */
import { StoryDocumentSchema, type StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import type { RunConfigInput } from '../../lambdas/core/schemas/config.js';
import { WRITING_AGENT } from './e2e-stack.js';
import { makeGitRepo, makePrd } from './git-repo.js';

type RunEvaluationConfigInput = NonNullable<RunConfigInput['evaluation']>;

/** The suite: the pipeline's output for each fixed input is the committed story. */
export const SUITE_COMMAND = 'cp eval/stories/*.json "$RALPH_EVAL_OUTPUT_DIR"/';

/**
 * A user story the cheap mode scores 3.43 with no learned patterns (a title without an
 * action word, three criteria, a vague technical area, a value phrase, a fitting scope),
 * holding the phrases "frustrated when", "by hand" and "month-end close".
 *
 * @example
 * suiteStory('conv-1', { title: 'Export invoices' });
 */
export function suiteStory(id: string, overrides: Partial<StoryDocument> = {}): StoryDocument {
  return StoryDocumentSchema.parse({
    id,
    title: `Invoice export for accountants (${id})`,
    description:
      'As an accountant I am frustrated when I copy invoices by hand into the ledger; an export saves an hour at month-end close.',
    acceptance_criteria: [
      'Clicking Export downloads a CSV file',
      'The CSV lists one row per invoice',
      'Given no invoices, then an empty state is shown',
    ],
    technical_area: 'billing',
    ...overrides,
  });
}

/**
 * A throwaway repository whose suite writes `stories`, with a prd.json of `storyCount`
 * open stories for `project` (the project names the pattern set: one per test).
 */
export async function makeSuiteRepo(input: {
  project: string;
  stories: readonly StoryDocument[];
  storyCount: number;
}): Promise<{ path: string; prd: Prd; cleanup: () => Promise<void> }> {
  const prd = makePrd(input.storyCount, { project: input.project });
  const files: Record<string, string> = { 'prd.json': `${JSON.stringify(prd, null, 2)}\n` };
  for (const story of input.stories)
    files[`eval/stories/${story.id}.json`] = `${JSON.stringify(story, null, 2)}\n`;
  const repo = await makeGitRepo(files);
  return { ...repo, prd };
}

/**
 * A run config that evaluates the suite's documents only (not the change), with `evaluation`
 * merged over it; the agent writes one file per story and commits it.
 *
 * @example
 * suiteRunConfig({ stopOnConvergence: true }, { maxIterations: 6 });
 */
export function suiteRunConfig(
  evaluation: Partial<RunEvaluationConfigInput>,
  limits: RunConfigInput['limits'] = {},
): RunConfigInput {
  return {
    agent: { command: WRITING_AGENT },
    limits,
    evaluation: {
      enabled: true,
      judgeChanges: false,
      suite: { command: SUITE_COMMAND },
      ...evaluation,
    },
  };
}
