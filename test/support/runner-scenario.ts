/**
 * The runner's integration scenarios: a committed repository, a run with one planned
 * iteration (and its plan.json) in the emulators' stores, and what the tests read back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
export { exists } from '../../agent/working-copy/optional-files.js';
import type { RunnerDeps } from '../../agent/runner.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys, type IterationArtefact } from '../../lambdas/core/shared/artefact-keys.js';
import { serializePrd } from '../../lambdas/core/ralph/prd.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { type IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { type Prd } from '../../lambdas/core/schemas/prd.js';
import { type RepoRef, type RunRecord } from '../../lambdas/core/schemas/run.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import type { Clock } from '../../lambdas/ports.js';
import { git, makeGitRepo, makePrd } from './git-repo.js';
import { useEmulatorStores } from './emulator-stores.js';
import type { Emulators } from '../../local/emulators.js';
import { makeIteration, makeRun, makeTasks } from './records.js';
import { templates } from './templates.js';

export const NOW = new Date('2025-01-15T12:34:56.000Z');
const clock: Clock = { now: () => NOW };
/** The container's spawner: plain child processes (the local stack's runs in the e2e tests). */
const spawner = new ChildProcessSpawner();

let runs: DynamoRunStore;
let artefacts: S3ArtefactStore;
const temporary: string[] = [];

export interface RunnerStores {
  runs: DynamoRunStore;
  artefacts: S3ArtefactStore;
  /** Where they run, for a runner started as a process of its own. */
  emulators: Emulators;
}

/**
 * Registers the test file's emulators and clean-up; `ready` receives the stores the
 * scenarios use.
 *
 * @example
 * let runs: DynamoRunStore;
 * useRunnerScenarios((stores) => ({ runs } = stores));
 */
export function useRunnerScenarios(ready: (stores: RunnerStores) => void = () => undefined): void {
  useEmulatorStores((stores) => {
    ({ runs, artefacts } = stores);
    ready({ runs, artefacts, emulators: stores.emulators });
  });
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
}

export async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `ralph-runner-${label}-`));
  temporary.push(dir);
  return dir;
}

/** Removes `dir` (a repository a helper made) after the test. */
export function removeAfterTest(dir: string): void {
  temporary.push(dir);
}

let runCounter = 0;

export interface Scenario {
  runId: string;
  repo: string;
  /** A directory outside the repository where test agents leave traces (`$OUT`). */
  out: string;
  run: RunRecord;
  deps: RunnerDeps;
}

export interface ScenarioOptions {
  agent: string;
  gates?: RunConfigInput['gates'];
  evaluation?: RunConfigInput['evaluation'];
  control?: RunConfigInput['control'];
  agentTimeoutSeconds?: number;
  prd?: Prd;
  files?: Record<string, string>;
  repo?: (path: string) => RepoRef;
  iteration?: number;
  plan?: Partial<IterationPlan>;
  /** Where prd.json lives in the repository. */
  prdPath?: string;
  /** Commit prd.json with the other files on `main` (default true). */
  commitPrd?: boolean;
  /** Runs after the repository is made, with the prd.json text (to put it elsewhere). */
  prepareRepo?: (repo: string, prdText: string) => Promise<void>;
}

/** A committed repository, a run with one planned iteration, and its plan.json. */
export async function scenario(options: ScenarioOptions): Promise<Scenario> {
  runCounter += 1;
  const runId = `runner-${runCounter}`;
  const prd = options.prd ?? makePrd(2);
  const prdPath = options.prdPath ?? 'prd.json';
  const made = await makeGitRepo({
    ...(options.commitPrd === false ? {} : { [prdPath]: serializePrd(prd) }),
    'README.md': '# demo\n',
    '.gitignore': 'node_modules/\n',
    ...options.files,
  });
  temporary.push(made.path);
  await options.prepareRepo?.(made.path, serializePrd(prd));
  const out = await tempDir('out');
  const iteration = options.iteration ?? 1;
  const run = makeRun({
    runId,
    repo: options.repo ? options.repo(made.path) : { kind: 'local', path: made.path },
    prdPath,
    branchName: prd.branchName,
    project: prd.project,
    storiesTotal: prd.userStories.length,
    iterationsStarted: iteration,
    config: {
      agent: {
        command: options.agent,
        timeoutSeconds: options.agentTimeoutSeconds ?? 30,
        env: { OUT: out },
      },
      gates: options.gates ?? [],
      ...(options.evaluation ? { evaluation: options.evaluation } : {}),
      ...(options.control ? { control: options.control } : {}),
    },
  });
  await runs.createRun(run, makeTasks(runId, prd.userStories.length));
  await planIteration(runId, prd, iteration, options.plan);
  const deps: RunnerDeps = {
    runs,
    artefacts,
    clock,
    templates,
    spawner,
    cancelPollMs: 100,
    killGraceMs: 500,
    workspaceRoot: await tempDir('workspaces'),
  };
  return { runId, repo: made.path, out, run, deps };
}

/** A planned iteration of the scenario's run, with its plan.json, on the first story. */
export async function planIteration(
  runId: string,
  prd: Prd,
  iteration: number,
  overrides: Partial<IterationPlan> = {},
): Promise<void> {
  const story = prd.userStories[0];
  if (!story) throw new Error('the prd needs a story');
  await runs.createIteration(
    makeIteration({ runId, iteration, taskId: story.id, taskTitle: story.title }),
  );
  const plan: IterationPlan = {
    runId,
    iteration,
    attempt: 1,
    story,
    iterationsLeft: 5,
    storiesRemaining: prd.userStories.length,
    ...overrides,
  };
  await artefacts.put(artefactKeys.iteration(runId, iteration, 'plan.json'), JSON.stringify(plan));
}

export function artefact(runId: string, name: IterationArtefact, iteration = 1): Promise<string> {
  return artefacts.getText(artefactKeys.iteration(runId, iteration, name));
}

export async function storedResult(runId: string, iteration = 1): Promise<IterationResult> {
  return IterationResultSchema.parse(JSON.parse(await artefact(runId, 'result.json', iteration)));
}

/** No change outside the runner's own files (which stay, uncommitted, after a failure). */
export async function isClean(repo: string): Promise<boolean> {
  const status = await git(repo, 'status', '--porcelain', '--untracked-files=all');
  return status
    .split('\n')
    .filter((line) => line !== '')
    .every((line) => /^.. (progress\.txt|\.last-branch|archive\/.*)$/.test(line));
}

/** What the runner commits before the agent runs: `.last-branch`, the archive... */
export async function startCommit(repo: string, branch = 'ralph/demo'): Promise<string> {
  const sha = await git(repo, 'rev-parse', `refs/heads/${branch}`);
  const subject = await git(repo, 'log', '-1', '--format=%s', sha);
  return subject.startsWith('chore(ralph): ') ? sha : await git(repo, 'rev-parse', `${sha}^`);
}

/** An ArtefactStore over the emulator's that fails the writes `failing` picks. */
export function failingPuts(failing: (key: string) => boolean): RunnerDeps['artefacts'] {
  return {
    put: (key, body, contentType) =>
      failing(key)
        ? Promise.reject(new Error(`S3 refused ${key}`))
        : artefacts.put(key, body, contentType),
    getText: (key) => artefacts.getText(key),
    exists: (key) => artefacts.exists(key),
    deletePrefix: (prefix) => artefacts.deletePrefix(prefix),
    locate: (key) => artefacts.locate(key),
  };
}

/** An ArtefactStore over the emulator's whose reads fail: plan.json cannot be read. */
export function failingReads(): RunnerDeps['artefacts'] {
  return {
    put: (key, body) => artefacts.put(key, body),
    getText: () => Promise.reject(new Error('S3 is down')),
    exists: (key) => artefacts.exists(key),
    deletePrefix: (prefix) => artefacts.deletePrefix(prefix),
    locate: (key) => artefacts.locate(key),
  };
}

/** A report in the prompt's final-message format. */
export const REPORT = [
  'echo "<summary>Added feature.txt</summary>"',
  'echo "<learnings>"; echo "- feature files live at the root"; echo "</learnings>"',
  'echo "<codebase-patterns>"; echo "- one file per feature"; echo "</codebase-patterns>"',
].join('; ');

export async function storedGates(runId: string): Promise<{ name: string; passed: boolean }[]> {
  return (JSON.parse(await artefact(runId, 'gates.json')) as { gates: never[] }).gates;
}

/** A vitest run that exited 0 with `failed` of `total` tests failing (a tolerant config). */
export const vitestSummary = (failed: number, total: number): string =>
  `printf ' Test Files  1 passed (1)\\n      Tests  ${failed} failed | ${total - failed} passed (${total})\\n'`;

/** An agent that writes a file that is not source (no test is expected for it). */
export const NOTES_AGENT = 'cat > /dev/null; echo "$RALPH_STORY_ID" > notes.txt';
