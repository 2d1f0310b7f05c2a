/**
 * An investigate run for the runner's tests: a small app with a real bug in a committed
 * repository, error groups stored as the run's tasks' artefacts, planned iterations, and the
 * scripted investigating agent (test/fixtures/agents/investigator.mjs) with its script.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import type { RunnerDeps } from '../../agent/runner.js';
import { investigateTaskId } from '../../lambdas/core/incidents/short-fingerprint.js';
import type { ErrorGroup } from '../../lambdas/core/schemas/error-group.js';
import { makeErrorGroup } from './error-groups.js';
export { makeErrorGroup } from './error-groups.js';
import type { Gate } from '../../lambdas/core/schemas/config.js';
import type { IterationPlan } from '../../lambdas/core/schemas/plan.js';
import type { RepoRef } from '../../lambdas/core/schemas/run.js';
import {
  InvestigateSettingsSchema,
  type InvestigateSettings,
} from '../../lambdas/core/schemas/project-route.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { makeGitRepo } from './git-repo.js';
import { makeIteration, makeRun, makeTask } from './records.js';
import { NOW, removeAfterTest, tempDir, type RunnerStores } from './runner-scenario.js';
import { templates } from './templates.js';

const spawner = new ChildProcessSpawner();

const INVESTIGATOR = fileURLToPath(new URL('../fixtures/agents/investigator.mjs', import.meta.url));

/** The app: a cart total that throws when no discount is given. */
export const BUGGY_CART = [
  'export function total(items, discount) {',
  '  const sum = items.reduce((running, item) => running + item.price, 0);',
  '  return sum - (sum * discount.percent) / 100;',
  '}',
  '',
].join('\n');
export const FIXED_CART = BUGGY_CART.replace('discount.percent', '(discount?.percent ?? 0)');

export const APP_FILES: Record<string, string> = {
  'src/cart.mjs': BUGGY_CART,
  'test/cart.test.mjs': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { total } from '../src/cart.mjs';",
    "test('a discount comes off the sum', () => assert.equal(total([{ price: 100 }], { percent: 10 }), 90));",
    '',
  ].join('\n'),
  '.gitignore': 'node_modules/\n',
};

/** The app's test, and a gate that fails on the base already (it must not count against a fix). */
export const APP_GATES: Gate[] = [
  { name: 'test', command: 'node --test', blocking: true, timeoutSeconds: 60 },
  { name: 'changelog', command: 'test -f CHANGELOG.md', blocking: true, timeoutSeconds: 10 },
];

export interface InvestigateScenario {
  runId: string;
  repo: string;
  out: string;
  deps: RunnerDeps;
  groups: ErrorGroup[];
  taskIds: string[];
  /** Plans iteration `iteration` on task `taskIds[index]` (iteration 1 on the first is planned). */
  plan(iteration: number, index: number): Promise<void>;
}

export interface InvestigateOptions {
  /** The scripted agent's script (see the fixture's header). */
  script: Record<string, Record<string, unknown>>;
  groups?: ErrorGroup[];
  gates?: Gate[];
  settings?: Partial<InvestigateSettings>;
  repo?: (path: string) => RepoRef;
  /** The repository's files (the app by default) and the agent command (the fixture's). */
  files?: Record<string, string>;
  agent?: string;
}

let counter = 0;

/** A committed app, an investigate run with its groups stored, iteration 1 planned. */
export async function investigateScenario(
  stores: RunnerStores,
  options: InvestigateOptions,
): Promise<InvestigateScenario> {
  counter += 1;
  const runId = `investigate-${counter}`;
  const made = await makeGitRepo(options.files ?? APP_FILES);
  removeAfterTest(made.path);
  const out = await tempDir('investigate-out');
  const scriptFile = join(out, 'script.json');
  await writeFile(scriptFile, JSON.stringify(options.script));
  const groups = options.groups ?? [
    makeErrorGroup(
      'issue:1001',
      "TypeError: Cannot read properties of undefined (reading 'percent')",
    ),
  ];
  const taskIds = groups.map((group) => investigateTaskId(group));
  const run = makeRun({
    runId,
    repo: options.repo ? options.repo(made.path) : { kind: 'local', path: made.path },
    branchName: `ralph/investigate/${runId}`,
    project: 'shop',
    storiesTotal: groups.length,
    iterationsStarted: 1,
    config: {
      agent: {
        command: options.agent ?? `node ${INVESTIGATOR} ${scriptFile}`,
        timeoutSeconds: 60,
        env: { OUT: out },
      },
      gates: options.gates ?? APP_GATES,
    },
    investigation: {
      batchId: `batch-${counter}`,
      projectId: 'shop',
      baseBranch: 'main',
      settings: InvestigateSettingsSchema.parse(options.settings ?? {}),
      errors: groups.map((group, index) => ({
        source: group.source,
        fingerprint: group.fingerprint,
        taskId: taskIds[index] ?? '',
        score: 1,
      })),
    },
  });
  await stores.runs.createRun(
    run,
    groups.map((group, index) =>
      makeTask({
        runId,
        taskId: taskIds[index],
        title: `Investigate: ${group.latest.title}`,
        priority: index + 1,
      }),
    ),
  );
  await Promise.all(
    groups.map((group, index) =>
      stores.artefacts.put(
        artefactKeys.errorGroup(runId, taskIds[index] ?? ''),
        JSON.stringify(group),
      ),
    ),
  );
  const plan = async (iteration: number, index: number) => {
    const group = groups[index];
    const taskId = taskIds[index];
    if (!group || !taskId) throw new Error(`no group ${index}`);
    const title = `Investigate: ${group.latest.title}`;
    await stores.runs.createIteration(
      makeIteration({ runId, iteration, taskId, taskTitle: title }),
    );
    const planned: IterationPlan = {
      runId,
      iteration,
      attempt: 1,
      story: {
        id: taskId,
        title,
        description: title,
        acceptanceCriteria: ['The root cause is found'],
        priority: index + 1,
        passes: false,
        notes: '',
      },
      iterationsLeft: 5,
      storiesRemaining: groups.length - index,
    };
    await stores.artefacts.put(
      artefactKeys.iteration(runId, iteration, 'plan.json'),
      JSON.stringify(planned),
    );
  };
  await plan(1, 0);
  return {
    runId,
    repo: made.path,
    out,
    groups,
    taskIds,
    plan,
    deps: {
      runs: stores.runs,
      artefacts: stores.artefacts,
      clock: { now: () => NOW },
      templates,
      spawner,
      cancelPollMs: 100,
      killGraceMs: 500,
      workspaceRoot: await tempDir('investigate-workspaces'),
    },
  };
}

/** A "fix" that no longer throws but drops the discount: the app's test catches it. */
export const BROKEN_FIX = BUGGY_CART.replace('discount.percent', '0 * (discount?.percent ?? 0)');
