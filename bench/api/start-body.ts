/**
 * The `POST /runs` body the bench sends: a small prd.json (three stories) on a local
 * repository path, as `ralph run --endpoint` sends to a local server. No execution starts
 * (see api-under-test.ts), so the path is only parsed, never cloned.
 */
import { REPO_ROOT } from '../../lib/paths.js';
import type { StartRunBody } from '../../lambdas/core/schemas/run-views.js';

const story = (n: number) => ({
  id: `US-00${n}`,
  title: `Story ${n} of the API bench`,
  description: `As a caller I want story ${n} done so that the bench has something to store.`,
  acceptanceCriteria: [`story ${n} is done`, 'the tests pass'],
  priority: n,
  passes: false,
});

export const START_BODY: StartRunBody = {
  repo: REPO_ROOT,
  prd: {
    project: 'bench-api',
    branchName: 'ralph/bench-api',
    description: 'A run the Run API bench starts and reads back.',
    userStories: [story(1), story(2), story(3)],
  },
};
