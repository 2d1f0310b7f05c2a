import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runIteration, type RunnerDeps } from '../../agent/runner.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys, type IterationArtefact } from '../../lambdas/core/shared/artefact-keys.js';
import { IterationClaimedError } from '../../lambdas/core/errors.js';
import { serializePrd } from '../../lambdas/core/ralph/prd.js';
import {
  codebasePatterns,
  newProgressLog,
  recentEntries,
} from '../../lambdas/core/ralph/progress-log.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { type IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { type Prd } from '../../lambdas/core/schemas/prd.js';
import { type RepoRef, type RunRecord } from '../../lambdas/core/schemas/run.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import type { Clock } from '../../lambdas/ports.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeIteration, makeRun, makeTasks } from '../support/records.js';
import { templates } from '../support/templates.js';

const NOW = new Date('2025-01-15T12:34:56.000Z');
const clock: Clock = { now: () => NOW };

let runs: DynamoRunStore;
let artefacts: S3ArtefactStore;
const temporary: string[] = [];

useEmulatorStores((stores) => ({ runs, artefacts } = stores));

afterEach(async () => {
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `ralph-runner-${label}-`));
  temporary.push(dir);
  return dir;
}

let runCounter = 0;

interface Scenario {
  runId: string;
  repo: string;
  /** A directory outside the repository where test agents leave traces (`$OUT`). */
  out: string;
  run: RunRecord;
  deps: RunnerDeps;
}

interface ScenarioOptions {
  agent: string;
  gates?: RunConfigInput['gates'];
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
async function scenario(options: ScenarioOptions): Promise<Scenario> {
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
    cancelPollMs: 100,
    killGraceMs: 500,
    workspaceRoot: await tempDir('workspaces'),
  };
  return { runId, repo: made.path, out, run, deps };
}

/** A planned iteration of the scenario's run, with its plan.json, on the first story. */
async function planIteration(
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

function artefact(runId: string, name: IterationArtefact, iteration = 1): Promise<string> {
  return artefacts.getText(artefactKeys.iteration(runId, iteration, name));
}

async function storedResult(runId: string, iteration = 1): Promise<IterationResult> {
  return IterationResultSchema.parse(JSON.parse(await artefact(runId, 'result.json', iteration)));
}

/** No change outside the runner's own files (which stay, uncommitted, after a failure). */
async function isClean(repo: string): Promise<boolean> {
  const status = await git(repo, 'status', '--porcelain', '--untracked-files=all');
  return status
    .split('\n')
    .filter((line) => line !== '')
    .every((line) => /^.. (progress\.txt|\.last-branch|archive\/.*)$/.test(line));
}

/** A file or a directory. */
async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** What the runner commits before the agent runs: `.last-branch`, the archive... */
async function startCommit(repo: string, branch = 'ralph/demo'): Promise<string> {
  const sha = await git(repo, 'rev-parse', `refs/heads/${branch}`);
  const subject = await git(repo, 'log', '-1', '--format=%s', sha);
  return subject.startsWith('chore(ralph): ') ? sha : await git(repo, 'rev-parse', `${sha}^`);
}

/** An ArtefactStore over the emulator's that fails the writes `failing` picks. */
function failingPuts(failing: (key: string) => boolean): RunnerDeps['artefacts'] {
  return {
    put: (key, body, contentType) =>
      failing(key)
        ? Promise.reject(new Error(`S3 refused ${key}`))
        : artefacts.put(key, body, contentType),
    getText: (key) => artefacts.getText(key),
    exists: (key) => artefacts.exists(key),
    locate: (key) => artefacts.locate(key),
  };
}

/** A report in the prompt's final-message format. */
const REPORT = [
  'echo "<summary>Added feature.txt</summary>"',
  'echo "<learnings>"; echo "- feature files live at the root"; echo "</learnings>"',
  'echo "<codebase-patterns>"; echo "- one file per feature"; echo "</codebase-patterns>"',
].join('; ');

describe('Function: runIteration', () => {
  it('commits a passing change, marks the story and logs progress in Ralph format', async () => {
    // Prepare
    const prd: Prd = {
      'x-owner': 'team-a',
      ...makePrd(2),
      userStories: makePrd(2).userStories.map((story) => ({ ...story, estimate: 3 })),
    } as Prd;
    const { runId, repo, out, deps } = await scenario({
      prd,
      agent: `cat > "$OUT/stdin.md"; echo "$RALPH_STORY_ID" > feature.txt; ${REPORT}; echo "<promise>COMPLETE</promise>"`,
      gates: [{ name: 'feature', command: 'test -f feature.txt && echo feature present' }],
    });
    const base = await git(repo, 'rev-parse', 'HEAD');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({
      outcome: 'passed',
      taskId: 'US-001',
      agentExitCode: 0,
      agentClaimedComplete: true,
      filesChanged: ['feature.txt'],
      failureDetail: '',
    });
    expect(result.evidenceRef).toBeUndefined();
    expect(result.gates).toEqual([
      expect.objectContaining({ name: 'feature', passed: true, outputTail: 'feature present' }),
    ]);
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(result.commit);
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    const start = await git(repo, 'rev-parse', 'HEAD^');
    expect(await git(repo, 'log', '-1', '--format=%s|%an|%P')).toBe(
      `feat: US-001 - Story 1|ralph-cloud|${start}`,
    );
    expect(await git(repo, 'log', '-1', '--format=%s|%an|%P', start)).toBe(
      `chore(ralph): start ralph/demo|ralph-cloud|${base}`,
    );
    expect(await git(repo, 'show', '--name-only', '--format=', start)).toBe(
      '.last-branch\nprogress.txt',
    );
    expect(await isClean(repo)).toBe(true);
    expect(await readFile(join(repo, 'feature.txt'), 'utf8')).toBe('US-001\n');

    const written = await readFile(join(repo, 'prd.json'), 'utf8');
    const expected = {
      ...prd,
      userStories: prd.userStories.map((s, i) => ({ ...s, passes: i === 0 })),
    };
    expect(written).toBe(serializePrd(expected));
    expect(Object.keys(JSON.parse(written) as object)[0]).toBe('x-owner');

    const progress = await readFile(join(repo, 'progress.txt'), 'utf8');
    expect(
      progress.startsWith('# Ralph Progress Log\nStarted: 2025-01-15T12:34:56.000Z\n---\n'),
    ).toBe(true);
    expect(codebasePatterns(progress)).toEqual(['one file per feature']);
    expect(recentEntries(progress, 5)).toEqual([
      [
        '## 2025-01-15 12:34 - US-001',
        '- Added feature.txt',
        '- Files changed: feature.txt',
        '- **Learnings for future iterations:**',
        '  - feature files live at the root',
      ].join('\n'),
    ]);
    expect(await readFile(join(repo, '.last-branch'), 'utf8')).toBe('ralph/demo\n');

    const prompt = await artefact(runId, 'prompt.md');
    expect(await readFile(join(out, 'stdin.md'), 'utf8')).toBe(prompt);
    expect(prompt).toContain('**US-001: Story 1**');
    expect(prompt).toContain('- Stay on `ralph/demo`: do not check out, reset, rebase or delete');
    expect(await artefact(runId, 'diff.patch')).toContain('+++ b/feature.txt');
    const transcript = (await artefact(runId, 'transcript.jsonl')).trim().split('\n');
    expect(JSON.parse(transcript[0] ?? '')).toEqual({
      type: 'text',
      stream: 'stdout',
      text: '<summary>Added feature.txt</summary>',
    });
    const gates = JSON.parse(await artefact(runId, 'gates.json')) as { gates: unknown[] };
    expect(gates.gates).toEqual([
      expect.objectContaining({
        name: 'feature',
        output: 'feature present\n',
        command: expect.any(String),
      }),
    ]);
    expect(await storedResult(runId)).toEqual(result);
    expect(Object.keys(result.artefacts).sort()).toEqual(
      ['diff', 'gates', 'plan', 'prompt', 'result', 'transcript'].sort(),
    );
    expect(result.startedAt).toBe(NOW.toISOString());
    expect(result.durations.agentMs).toBeGreaterThan(0);
    expect((await runs.getIteration(runId, 1))?.status).toBe('running');
  });

  it('archives old progress entries to S3 every tenth iteration, keeping patterns and the recent ones', async () => {
    // Prepare: five entries already; iteration 10 adds the sixth.
    const entries = Array.from(
      { length: 5 },
      (_, index) => `## 2025-01-0${index + 1} 10:00 - US-00${index + 1}\n- entry ${index + 1}\n---`,
    );
    const progress = [
      '# Ralph Progress Log',
      'Started: 2025-01-01T09:00:00.000Z',
      '---',
      '',
      '## Codebase Patterns',
      '- Keep lists immutable',
      '',
      ...entries,
      '',
    ].join('\n');
    const { runId, repo, deps } = await scenario({
      iteration: 10,
      files: { 'progress.txt': progress },
      agent: 'cat > /dev/null; echo x > feature.txt',
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 10 });

    // Assess: entries 1-3 moved out; 4, 5 and the new one stay, after the patterns.
    expect(result.outcome).toBe('passed');
    const archived = await artefacts.getText(artefactKeys.progressArchive(runId, 10));
    expect(archived).toContain('- entry 1');
    expect(archived).toContain('- entry 3');
    expect(archived).not.toContain('- entry 4');
    const kept = await git(repo, 'show', 'HEAD:progress.txt');
    expect(kept).toContain('## Codebase Patterns\n- Keep lists immutable');
    expect(kept).not.toContain('- entry 3');
    expect(kept).toContain('- entry 4');
    expect(kept).toContain('- entry 5');
    expect(result.artefacts['progress-archive']).toBe(artefactKeys.progressArchive(runId, 10));
  });

  it.each([
    [400, true],
    [100_000, false],
  ])(
    'checks the size of progress.txt between periodic archives (limit %i bytes: archived %s)',
    async (maxProgressBytes, archivedNow) => {
      // Prepare: iteration 7 is no periodic archive; the log is some 600 bytes.
      const entries = Array.from(
        { length: 5 },
        (_, index) =>
          `## 2025-01-0${index + 1} 10:00 - US-00${index + 1}\n- entry ${index + 1}: ${'x'.repeat(60)}\n---`,
      );
      const progress = ['# Ralph Progress Log', 'Started: 2025-01-01', '---', '', ...entries, ''];
      const { runId, repo, deps } = await scenario({
        iteration: 7,
        files: { 'progress.txt': progress.join('\n') },
        agent: 'cat > /dev/null; echo x > feature.txt',
        control: { archive: { maxProgressBytes } },
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 7 });

      // Assess
      expect(result.outcome).toBe('passed');
      const kept = await git(repo, 'show', 'HEAD:progress.txt');
      expect(kept.includes('- entry 1:')).toBe(!archivedNow);
      expect(result.artefacts['progress-archive']).toBe(
        archivedNow ? artefactKeys.progressArchive(runId, 7) : undefined,
      );
      if (archivedNow)
        expect(await artefacts.getText(artefactKeys.progressArchive(runId, 7))).toContain(
          '- entry 1:',
        );
    },
  );

  it('resets a change whose gates fail and keeps it as evidence', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        'echo changed >> README.md',
        'echo "export {}" > committed.ts',
        'git add committed.ts',
        'git -c user.name=a -c user.email=a@b.c commit -q -m wip',
        'echo new > untracked.ts',
      ].join(' && '),
      gates: [
        { name: 'test', command: 'echo "expected 1, got 2" >&2; exit 1' },
        { name: 'lint', command: 'exit 1', blocking: false },
      ],
    });
    const prdBefore = await readFile(join(repo, 'prd.json'), 'utf8');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const base = await startCommit(repo);
    expect(result.outcome).toBe('gates_failed');
    expect(result.cause).toBe('blocking gate failed: test');
    expect(result.failureDetail).toBe('gate test failed (exit 1):\nexpected 1, got 2');
    expect(result.commit).toBeUndefined();
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.filesChanged.sort()).toEqual(['README.md', 'committed.ts', 'untracked.ts']);

    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(base);
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(base);
    expect(await isClean(repo)).toBe(true);
    expect(await exists(join(repo, 'untracked.ts'))).toBe(false);
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(await readFile(join(repo, 'prd.json'), 'utf8')).toBe(prdBefore);
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).toBe(newProgressLog(NOW));

    const evidence = result.evidenceRef ?? '';
    expect(await git(repo, 'show', `${evidence}:untracked.ts`)).toBe('new');
    expect(await git(repo, 'show', `${evidence}:README.md`)).toBe('# demo\nchanged');
    expect(await git(repo, 'show', `${evidence}:committed.ts`)).toBe('export {}');
    expect(await git(repo, 'rev-parse', `${evidence}^^`)).toBe(base);
    expect(await git(repo, 'diff', '--name-only', base, evidence)).not.toContain('progress.txt');
    const patch = await artefact(runId, 'diff.patch');
    expect(patch).toContain('+++ b/untracked.ts');
    expect(patch).toContain('+++ b/committed.ts');
    const gates = JSON.parse(await artefact(runId, 'gates.json')) as {
      gates: { output: string }[];
    };
    expect(gates.gates[0]?.output).toBe('expected 1, got 2\n');
    // What loop control reads: the size of the change kept as evidence (3 files, 3 lines).
    expect(result.observation?.linesAdded).toBe(3);
    expect(result.observation?.linesRemoved).toBe(0);
    expect(result.observation?.agent?.format).toBe('plain');
  });

  it('keeps ignored files (node_modules) through the reset', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > new.ts',
      gates: [{ name: 'test', command: 'exit 1' }],
    });
    await mkdir(join(repo, 'node_modules'));
    await writeFile(join(repo, 'node_modules', 'dep.js'), 'module.exports = 1;\n');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(await exists(join(repo, 'node_modules', 'dep.js'))).toBe(true);
    expect(await exists(join(repo, 'new.ts'))).toBe(false);
  });

  it('reports an agent that exits non-zero, with its output, and resets what it changed', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent:
        'echo partial > partial.ts; echo "thinking..."; echo "fatal: cannot continue" >&2; exit 2',
      gates: [{ name: 'never', command: 'touch "$OUT/gate-ran"' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({
      outcome: 'agent_failed',
      cause: 'the agent exited with code 2',
      agentExitCode: 2,
      gates: [],
      evidenceRef: `refs/ralph/evidence/${runId}/1`,
      filesChanged: ['partial.ts'],
    });
    expect(result.failureDetail).toContain('fatal: cannot continue');
    expect(result.failureDetail).toContain('thinking...');
    expect(await isClean(repo)).toBe(true);
    expect(result.artefacts.gates).toBeUndefined();
    expect(await artefact(runId, 'transcript.jsonl')).toContain(
      JSON.stringify({ type: 'text', stream: 'stderr', text: 'fatal: cannot continue' }),
    );
  });

  it('reports an agent killed by a signal as crashed, without evidence when it changed nothing', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({ agent: 'kill -KILL $$' });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({ outcome: 'agent_crashed', agentExitCode: null });
    expect(result.cause).toContain('SIGKILL');
    expect(result.evidenceRef).toBeUndefined();
    expect(await isClean(repo)).toBe(true);
    expect(await artefact(runId, 'diff.patch')).toBe('');
  });

  it('reports an agent command that does not exist as crashed', async () => {
    // Prepare
    const { runId, deps } = await scenario({ agent: 'no-such-agent-binary --flag' });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_crashed');
    expect(result.cause).toContain('no-such-agent-binary');
  });

  it('stops an agent past its timeout, its whole process group with it', async () => {
    // Prepare
    const { runId, repo, out, deps } = await scenario({
      agent: 'echo wip > wip.ts; sleep 100 & echo $! > "$OUT/child.pid"; sleep 100',
      agentTimeoutSeconds: 1,
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_timeout');
    expect(result.cause).toBe('the agent timed out after 1s');
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.durations.agentMs).toBeLessThan(3_000);
    const pid = Number((await readFile(join(out, 'child.pid'), 'utf8')).trim());
    expect(await processRunning(pid)).toBe(false);
    expect(await isClean(repo)).toBe(true);
  });

  it('fails the iteration when a gate hangs past its timeout', async () => {
    // Prepare
    const { runId, deps } = await scenario({
      agent: 'echo x > x.ts',
      gates: [{ name: 'hang', command: 'echo waiting; sleep 100', timeoutSeconds: 1 }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.gates[0]).toMatchObject({ name: 'hang', timedOut: true, passed: false });
    expect(result.failureDetail).toBe('gate hang failed (timed out after 1s):\nwaiting');
  });

  it('reports no_changes when the agent exits 0 without changing anything', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'echo "nothing to do here"',
      gates: [{ name: 'never', command: 'touch "$OUT/gate-ran"' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('no_changes');
    expect(result.failureDetail).toContain('nothing to do here');
    expect(await exists(join(out, 'gate-ran'))).toBe(false);
  });

  it('discards what the agent does to prd.json and progress.txt', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        `sed -i 's/"passes": false/"passes": true/' prd.json`,
        'echo "agent scribble" >> progress.txt',
        'echo done > done.ts',
      ].join(' && '),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const prd = JSON.parse(await readFile(join(repo, 'prd.json'), 'utf8')) as Prd;
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, false]);
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).not.toContain('agent scribble');
    expect(result.filesChanged).toEqual(['done.ts']);
  });

  it('keeps the runner files beside a prd.json in a subdirectory through a reset', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      prdPath: 'scripts/ralph/prd.json',
      agent: 'echo x > x.ts; echo scribble >> scripts/ralph/progress.txt',
      gates: [{ name: 'test', command: 'exit 1' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.filesChanged).toEqual(['x.ts']);
    expect(await readFile(join(repo, 'scripts/ralph/progress.txt'), 'utf8')).toBe(
      newProgressLog(NOW),
    );
    expect(await readFile(join(repo, 'scripts/ralph/.last-branch'), 'utf8')).toBe('ralph/demo\n');
    expect(await exists(join(repo, 'progress.txt'))).toBe(false);
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe(
      'scripts/ralph/.last-branch\nscripts/ralph/progress.txt',
    );
  });

  it('refuses a missing repository, naming the path', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      repo: (path) => ({ kind: 'local', path: `${path}-gone` }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toMatch(/-gone does not exist$/);
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
    expect(Object.keys(result.artefacts).sort()).toEqual(['plan', 'result']);
  });

  it('refuses a directory that is not a git repository', async () => {
    // Prepare
    const plain = await tempDir('plain');
    const { runId, deps } = await scenario({
      agent: 'true',
      repo: () => ({ kind: 'local', path: plain }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toContain('is not the top of a git working tree');
  });

  it('refuses a subdirectory of a repository', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      files: { 'sub/keep.txt': 'k\n' },
      repo: (path) => ({ kind: 'local', path: join(path, 'sub') }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toMatch(/\/sub is not the top of a git working tree$/);
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('refuses a repository whose config puts its working tree elsewhere', async () => {
    // Prepare
    const elsewhere = await tempDir('elsewhere');
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      prepareRepo: (path) => git(path, 'config', 'core.worktree', elsewhere).then(() => undefined),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toContain('is not the top of a git working tree');
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('works in a linked worktree', async () => {
    // Prepare
    const linked = join(await tempDir('linked'), 'tree');
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      repo: () => ({ kind: 'local', path: linked }),
      prepareRepo: (path) =>
        git(path, 'worktree', 'add', '-q', linked, '-b', 'side').then(() => undefined),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(linked, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
  });

  it("refuses a dirty working tree, listing the paths, but not for the runner's own files", async () => {
    // Prepare
    const dirty = await scenario({ agent: 'touch "$OUT/agent-ran"' });
    await writeFile(join(dirty.repo, 'README.md'), 'edited\n');
    await writeFile(join(dirty.repo, 'stray.txt'), 'stray\n');
    const ownFiles = await scenario({ agent: 'echo x > x.ts' });
    await writeFile(join(ownFiles.repo, 'progress.txt'), newProgressLog(NOW));
    await writeFile(join(ownFiles.repo, '.last-branch'), 'ralph/demo\n');

    // Act
    const refused = await runIteration(dirty.deps, { runId: dirty.runId, iteration: 1 });
    const accepted = await runIteration(ownFiles.deps, { runId: ownFiles.runId, iteration: 1 });

    // Assess
    expect(refused.outcome).toBe('workspace_dirty');
    expect(refused.cause).toContain('M README.md');
    expect(refused.cause).toContain('?? stray.txt');
    expect(await exists(join(dirty.out, 'agent-ran'))).toBe(false);
    expect(await readFile(join(dirty.repo, 'stray.txt'), 'utf8')).toBe('stray\n');
    expect(accepted.outcome).toBe('passed');
  });

  it('creates the run branch from the default branch when it is missing', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({ agent: 'echo x > x.ts' });
    const main = await git(repo, 'rev-parse', 'main');
    await git(repo, 'checkout', '-q', '-b', 'other');
    await writeFile(join(repo, 'other.txt'), 'other\n');
    await git(repo, 'add', 'other.txt');
    await git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-q', '-m', 'other');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', `${result.commit ?? ''}^^`)).toBe(main);
    expect(await exists(join(repo, 'other.txt'))).toBe(false);
  });

  it("archives the previous run's files when .last-branch names another branch", async () => {
    // Prepare
    const oldProgress =
      '# Ralph Progress Log\nStarted: earlier\n---\n\n## 2025-01-01 10:00 - OLD-1\n- old work\n---\n';
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    const oldPrd = await readFile(join(repo, 'prd.json'), 'utf8');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const archive = join(repo, 'archive', '2025-01-15-old-feature');
    expect(await readFile(join(archive, 'progress.txt'), 'utf8')).toBe(oldProgress);
    expect(await readFile(join(archive, 'prd.json'), 'utf8')).toBe(oldPrd);
    const progress = await readFile(join(repo, 'progress.txt'), 'utf8');
    expect(progress.startsWith(newProgressLog(NOW))).toBe(true);
    expect(progress).not.toContain('OLD-1');
    expect(await readFile(join(repo, '.last-branch'), 'utf8')).toBe('ralph/demo\n');
    expect(await isClean(repo)).toBe(true);
  });

  it('archives on a later iteration when the first did not get that far, and only once', async () => {
    // Prepare: iteration 1 never reached the working copy (say the tree was dirty).
    const oldProgress = '# Ralph Progress Log\nStarted: earlier\n---\n';
    const prd = makePrd(2);
    const { runId, repo, deps } = await scenario({
      prd,
      agent: 'echo "$RALPH_ITERATION" > x.ts',
      iteration: 2,
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    await planIteration(runId, prd, 3);

    // Act
    const second = await runIteration(deps, { runId, iteration: 2 });
    const third = await runIteration(deps, { runId, iteration: 3 });

    // Assess
    expect([second.outcome, third.outcome]).toEqual(['passed', 'passed']);
    expect(await readdir(join(repo, 'archive'))).toEqual(['2025-01-15-old-feature']);
    expect(
      await readFile(join(repo, 'archive', '2025-01-15-old-feature', 'progress.txt'), 'utf8'),
    ).toBe(oldProgress);
    expect(await readFile(join(repo, '.last-branch'), 'utf8')).toBe('ralph/demo\n');
    const subjects = (await git(repo, 'log', '--format=%s')).split('\n');
    expect(subjects).toEqual([
      'feat: US-001 - Story 1',
      'feat: US-001 - Story 1',
      'chore(ralph): archive ralph/old-feature and start ralph/demo',
      'initial',
    ]);
  });

  it('commits the archive before the agent runs, so a failed first iteration of a clone keeps it', async () => {
    // Prepare
    const oldProgress = '# Ralph Progress Log\nStarted: earlier\n---\n- old work\n';
    const prd = makePrd(2);
    const { runId, repo, deps } = await scenario({
      prd,
      agent: 'if [ "$RALPH_ITERATION" = 1 ]; then echo wip > wip.ts; exit 1; fi; echo x > x.ts',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    const oldPrd = await readFile(join(repo, 'prd.json'), 'utf8');
    await planIteration(runId, prd, 2);

    // Act
    const first = await runIteration(deps, { runId, iteration: 1 });
    const afterFirst = await git(repo, 'rev-parse', 'ralph/demo').catch(() => 'no branch');
    const second = await runIteration(deps, { runId, iteration: 2 });

    // Assess: the archive commit reached the remote although iteration 1 failed...
    expect(first.outcome).toBe('agent_failed');
    expect(await git(repo, 'log', '-1', '--format=%s', afterFirst)).toBe(
      'chore(ralph): archive ralph/old-feature and start ralph/demo',
    );
    expect(
      await git(repo, 'show', `${afterFirst}:archive/2025-01-15-old-feature/progress.txt`),
    ).toBe(oldProgress.trimEnd());
    expect(await git(repo, 'show', `${afterFirst}:archive/2025-01-15-old-feature/prd.json`)).toBe(
      oldPrd.trimEnd(),
    );
    expect(await git(repo, 'show', `${afterFirst}:.last-branch`)).toBe('ralph/demo');
    // ...and iteration 2, in a fresh clone, builds on it without archiving again.
    expect(second.outcome).toBe('passed');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(second.commit);
    expect(await git(repo, 'rev-parse', `${second.commit ?? ''}^`)).toBe(afterFirst);
    expect(await git(repo, 'ls-tree', '--name-only', 'ralph/demo:archive')).toBe(
      '2025-01-15-old-feature',
    );
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it("keeps prd.json and progress.txt that only the user's branch has when the run branch is created", async () => {
    // Prepare: prd.json and progress.txt are committed on `dev`, where the user sits; `main`
    // has neither, and the run branch is created from `main`.
    const devProgress = '# Ralph Progress Log\nStarted: earlier\n---\n- dev notes\n';
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      commitPrd: false,
      prepareRepo: async (path, prdText) => {
        await git(path, 'checkout', '-q', '-b', 'dev');
        await writeFile(join(path, 'prd.json'), prdText);
        await writeFile(join(path, 'progress.txt'), devProgress);
        await git(path, 'add', 'prd.json', 'progress.txt');
        await git(path, '-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-q', '-m', 'prd');
      },
    });
    const main = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', `${result.commit ?? ''}^^`)).toBe(main);
    const prd = JSON.parse(await git(repo, 'show', 'ralph/demo:prd.json')) as Prd;
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, false]);
    const progress = await git(repo, 'show', 'ralph/demo:progress.txt');
    expect(progress.startsWith(devProgress)).toBe(true);
    expect(progress).toContain('## 2025-01-15 12:34 - US-001');
    expect(await isClean(repo)).toBe(true);
  });

  it('refuses a duplicate delivery: the agent runs once', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'echo run >> "$OUT/runs.txt"; echo x > x.ts',
    });

    // Act
    const settled = await Promise.allSettled([
      runIteration(deps, { runId, iteration: 1 }),
      runIteration(deps, { runId, iteration: 1 }),
    ]);
    const again = runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(settled.filter((entry) => entry.status === 'fulfilled')).toHaveLength(1);
    const rejected = settled.find((entry) => entry.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(
      IterationClaimedError,
    );
    await expect(again).rejects.toBeInstanceOf(IterationClaimedError);
    expect(await readFile(join(out, 'runs.txt'), 'utf8')).toBe('run\n');
  });

  it('stops the agent when the run is cancelled, keeping its change as evidence', async () => {
    // Prepare
    const { runId, repo, out, deps } = await scenario({
      agent: 'echo wip > wip.ts; sleep 100 & echo $! > "$OUT/child.pid"; sleep 100',
    });
    setTimeout(() => {
      void (async () => {
        const run = await runs.getRun(runId);
        if (run) await runs.saveRun({ ...run, cancelRequested: true }, run.version);
      })();
    }, 300);

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('cancelled');
    expect(result.cause).toBe('the run was cancelled while the agent ran');
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.durations.agentMs).toBeLessThan(5_000);
    const pid = Number((await readFile(join(out, 'child.pid'), 'utf8')).trim());
    expect(await processRunning(pid)).toBe(false);
    expect(await isClean(repo)).toBe(true);
  });

  it('does not start the agent for a run that is already cancelled', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({ agent: 'touch "$OUT/agent-ran"' });
    const run = await runs.getRun(runId);
    if (run) await runs.saveRun({ ...run, cancelRequested: true }, run.version);

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('cancelled');
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('reports interrupted when the runner is told to stop', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({ agent: 'touch "$OUT/started"; sleep 100' });
    const controller = new AbortController();

    // Act: stop once the agent runs.
    const running = runIteration({ ...deps, signal: controller.signal }, { runId, iteration: 1 });
    while (!(await exists(join(out, 'started'))))
      await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const result = await running;

    // Assess
    expect(result.outcome).toBe('interrupted');
    expect(result.cause).toBe('the runner was told to stop while the agent ran');
  });

  it('clones a git URL, pushes the counted commit and removes the clone', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
    });

    // Act
    const result = await runIteration(
      { ...deps, gitToken: 'not-a-real-token' },
      { runId, iteration: 1 },
    );

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it('writes no gates.json for a run without gates', async () => {
    // Prepare
    const { runId, deps } = await scenario({ agent: 'echo x > x.ts' });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(Object.keys(result.artefacts).sort()).toEqual(
      ['diff', 'plan', 'prompt', 'result', 'transcript'].sort(),
    );
    expect(await artefacts.exists(artefactKeys.iteration(runId, 1, 'gates.json'))).toBe(false);
  });

  it('counts what the gates add to the tree among the files the commit changed', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      gates: [{ name: 'build', command: 'echo built > generated.txt' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.filesChanged.sort()).toEqual(['generated.txt', 'x.ts']);
    expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).toContain('generated.txt');
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).toContain('- Files changed: x.ts\n');
  });

  it('removes the clone when plan.json cannot be read', async () => {
    // Prepare
    const { runId, deps } = await scenario({
      agent: 'true',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
    });
    const broken: RunnerDeps = {
      ...deps,
      artefacts: {
        put: (key, body) => artefacts.put(key, body),
        getText: () => Promise.reject(new Error('S3 is down')),
        exists: (key) => artefacts.exists(key),
        locate: (key) => artefacts.locate(key),
      },
    };

    // Act
    const running = runIteration(broken, { runId, iteration: 1 });

    // Assess
    await expect(running).rejects.toThrow('S3 is down');
    expect((await storedResult(runId)).outcome).toBe('runner_error');
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it('writes a runner_error result and rethrows when something unexpected fails', async () => {
    // Prepare
    const { runId, deps } = await scenario({ agent: 'true' });
    const broken: RunnerDeps = {
      ...deps,
      artefacts: {
        put: (key, body) => artefacts.put(key, body),
        getText: () => Promise.reject(new Error('S3 is down')),
        exists: (key) => artefacts.exists(key),
        locate: (key) => artefacts.locate(key),
      },
    };

    // Act
    const running = runIteration(broken, { runId, iteration: 1 });

    // Assess
    await expect(running).rejects.toThrow('S3 is down');
    const result = await storedResult(runId);
    expect(result.outcome).toBe('runner_error');
    expect(result.cause).toBe('Error: S3 is down');
  });

  describe('when the agent touches the branches', () => {
    it('fails an agent that commits on another branch and leaves it checked out, and restores both', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: [
          'git checkout -q main',
          'echo x > x.ts',
          'git add x.ts',
          'git -c user.name=a -c user.email=a@b.c commit -q -m "on main"',
        ].join(' && '),
        gates: [{ name: 'ok', command: 'true' }],
      });
      const mainBefore = await git(repo, 'rev-parse', 'main');

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('agent_failed');
      expect(result.cause).toBe(
        'the agent left branch main checked out, moved branch main; restored',
      );
      expect(result.commit).toBeUndefined();
      expect(await git(repo, 'rev-parse', 'main')).toBe(mainBefore);
      expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/ralph/demo');
      expect(await git(repo, 'rev-parse', 'HEAD')).toBe(await startCommit(repo));
      expect(await isClean(repo)).toBe(true);
      expect(await exists(join(repo, 'x.ts'))).toBe(false);
      const evidence = result.evidenceRef ?? '';
      expect(await git(repo, 'log', '-1', '--format=%s', `${evidence}^`)).toBe('on main');
      expect(await git(repo, 'show', `${evidence}:x.ts`)).toBe('x');
      expect(result.filesChanged).toContain('x.ts');
    });

    it("fails an agent that moves another branch, keeping that branch's new head aside", async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: [
          'git checkout -q main',
          'echo m > m.ts',
          'git add m.ts',
          'git -c user.name=a -c user.email=a@b.c commit -q -m "on main"',
          'git checkout -q ralph/demo',
          'echo x > x.ts',
        ].join(' && '),
        gates: [{ name: 'ok', command: 'true' }],
      });
      const mainBefore = await git(repo, 'rev-parse', 'main');

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('agent_failed');
      expect(result.cause).toBe('the agent moved branch main; restored');
      expect(await git(repo, 'rev-parse', 'main')).toBe(mainBefore);
      const moved = `refs/ralph/moved/${runId}/1/main`;
      expect(result.failureDetail).toContain(moved);
      expect(await git(repo, 'show', `${moved}:m.ts`)).toBe('m');
      expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
      expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
      expect(await isClean(repo)).toBe(true);
    });

    it('fails an agent that leaves HEAD detached, and checks the run branch out again', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: 'echo x > x.ts && git checkout -q --detach',
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('agent_failed');
      expect(result.cause).toBe('the agent left HEAD detached; restored');
      expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/ralph/demo');
      expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
      expect(await isClean(repo)).toBe(true);
    });

    it('fails an agent that deletes the run branch, and recreates it', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: 'echo x > x.ts && git update-ref -d refs/heads/ralph/demo',
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('agent_failed');
      expect(result.cause).toBe('the agent deleted branch ralph/demo; restored');
      expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
      expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
      expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
      expect(await isClean(repo)).toBe(true);
    });

    it('fails an agent that rewinds the run branch below where the iteration started', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: 'git reset -q --hard main && echo x > x.ts',
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('agent_failed');
      expect(result.cause).toMatch(
        /^the agent rewrote branch ralph\/demo \(\w+ is no longer in its history\); restored$/,
      );
      expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
      expect(await git(repo, 'log', '-1', '--format=%s', 'ralph/demo')).toBe(
        'chore(ralph): start ralph/demo',
      );
    });

    it('fails the iteration when the gates leave another branch checked out', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: 'echo x > x.ts',
        gates: [{ name: 'sneaky', command: 'git checkout -q -b elsewhere' }],
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('gates_failed');
      expect(result.cause).toBe('the gates left branch elsewhere checked out; restored');
      expect(result.commit).toBeUndefined();
      expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
      expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
    });

    it('lets the agent commit on the run branch and add tags and branches of its own', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: [
          'echo x > x.ts',
          'git add x.ts',
          'git -c user.name=a -c user.email=a@b.c commit -q -m "agent commit"',
          'git tag agent-tag',
          'git branch agent-branch',
        ].join(' && '),
      });

      // Act
      const result = await runIteration(deps, { runId, iteration: 1 });

      // Assess
      expect(result.outcome).toBe('passed');
      expect(await git(repo, 'log', '-1', '--format=%s', `${result.commit ?? ''}^`)).toBe(
        'agent commit',
      );
      expect(await git(repo, 'rev-parse', 'agent-tag^{commit}')).toBe(
        await git(repo, 'rev-parse', `${result.commit ?? ''}^`),
      );
      expect(await git(repo, 'branch', '--list', 'agent-branch')).toContain('agent-branch');
    });
  });

  describe('once the counted commit is made', () => {
    it('reports passed when an artefact write after the gates fails', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({
        agent: 'echo x > x.ts',
        gates: [{ name: 'ok', command: 'true' }],
      });

      // Act
      const result = await runIteration(
        { ...deps, artefacts: failingPuts((key) => key.endsWith('/diff.patch')) },
        { runId, iteration: 1 },
      );

      // Assess
      expect(result.outcome).toBe('passed');
      expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
      expect(await storedResult(runId)).toEqual(result);
      expect(result.filesChanged).toEqual(['x.ts']);
      expect(result.artefacts.diff).toBeUndefined();
      expect(result.artefacts.gates).toBeDefined();
      expect(result.artefacts.transcript).toBeDefined();
    });

    it('reports passed when writing result.json fails once after the commit', async () => {
      // Prepare
      const { runId, repo, deps } = await scenario({ agent: 'echo x > x.ts' });
      let refused = 0;
      const store = failingPuts((key) => key.endsWith('/result.json') && refused++ === 0);

      // Act
      const result = await runIteration({ ...deps, artefacts: store }, { runId, iteration: 1 });

      // Assess
      expect(refused).toBe(2);
      expect(result.outcome).toBe('passed');
      expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
      expect(await storedResult(runId)).toEqual(result);
    });
  });

  it('keeps a counted commit whose push is refused as evidence, and reports runner_error', async () => {
    // Prepare: the remote accepts the runner's start commit but refuses the counted one.
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
    });
    await writeFile(
      join(repo, '.git', 'hooks', 'pre-receive'),
      [
        '#!/bin/sh',
        'while read old new ref; do',
        '  if [ "$ref" = refs/heads/ralph/demo ] && git log -1 --format=%s "$new" | grep -q "^feat:"; then',
        '    echo "refused by the test" >&2; exit 1',
        '  fi',
        'done',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );

    // Act
    const running = runIteration(deps, { runId, iteration: 1 });

    // Assess
    await expect(running).rejects.toThrow('refused by the test');
    const result = await storedResult(runId);
    expect(result.outcome).toBe('runner_error');
    expect(result.commit).toBeUndefined();
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
    expect(await git(repo, 'log', '-1', '--format=%s', 'ralph/demo')).toBe(
      'chore(ralph): start ralph/demo',
    );
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it("keeps the runner's credentials from the agent, the gates and hooks the agent plants", async () => {
    // Prepare
    const secrets: Record<string, string> = {
      AWS_ACCESS_KEY_ID: 'AKIATEST',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/abc',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:1',
      ECS_CONTAINER_METADATA_URI_V4: 'http://169.254.170.2/v4/abc',
      GIT_TOKEN: 'ghp_test',
      TABLE_NAME: 'ralph-table',
      BUCKET_NAME: 'ralph-bucket',
    };
    const { runId, out, deps } = await scenario({
      agent: [
        'env > "$OUT/agent.env"',
        'printf \'#!/bin/sh\\nenv > "%s/hook.env"\\n\' "$OUT" > .git/hooks/post-commit',
        'chmod +x .git/hooks/post-commit',
        'echo x > x.ts',
      ].join(' && '),
      gates: [{ name: 'env', command: 'env' }],
    });
    const saved = { ...process.env };
    Object.assign(process.env, secrets, { ANTHROPIC_API_KEY: 'sk-ant-test' });

    // Act
    let result: IterationResult;
    try {
      result = await runIteration(deps, { runId, iteration: 1 });
    } finally {
      for (const name of [...Object.keys(secrets), 'ANTHROPIC_API_KEY']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }

    // Assess
    expect(result.outcome).toBe('passed');
    const gates = JSON.parse(await artefact(runId, 'gates.json')) as {
      gates: { output: string }[];
    };
    const seen = {
      agent: await readFile(join(out, 'agent.env'), 'utf8'),
      gate: gates.gates[0]?.output ?? '',
    };
    for (const env of Object.values(seen)) {
      const names = env.split('\n').map((line) => line.split('=')[0] ?? '');
      expect(names.filter((name) => name in secrets || /^(AWS|ECS)_/.test(name))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'PATH', 'HOME']));
    }
    expect(seen.agent).toContain(`OUT=${out}`);
    expect(await exists(join(out, 'hook.env'))).toBe(false);
  });

  it('gives S3 a measurable body for empty artefacts (no "Stream of unknown length" warning)', async () => {
    // Prepare: an agent that changes nothing leaves an empty diff.patch.
    const { runId, deps } = await scenario({ agent: 'true' });
    const warn = vi.spyOn(console, 'warn');

    // Act
    let result: IterationResult;
    let warnings: string[];
    try {
      result = await runIteration(deps, { runId, iteration: 1 });
    } finally {
      warnings = warn.mock.calls.map((call) => String(call[0]));
      warn.mockRestore();
    }

    // Assess
    expect(result.outcome).toBe('no_changes');
    expect(await artefact(runId, 'diff.patch')).toBe('');
    expect(warnings).not.toContainEqual(expect.stringContaining('unknown length'));
  });
});

async function processRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function storedGates(runId: string): Promise<{ name: string; passed: boolean }[]> {
  return (JSON.parse(await artefact(runId, 'gates.json')) as { gates: never[] }).gates;
}

/** A vitest run that exited 0 with `failed` of `total` tests failing (a tolerant config). */
const vitestSummary = (failed: number, total: number): string =>
  `printf ' Test Files  1 passed (1)\\n      Tests  ${failed} failed | ${total - failed} passed (${total})\\n'`;

/** An agent that writes a file that is not source (no test is expected for it). */
const NOTES_AGENT = 'cat > /dev/null; echo "$RALPH_STORY_ID" > notes.txt';

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
