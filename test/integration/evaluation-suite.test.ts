import { access, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEvaluationSuite, SUITE_OUTPUT_ENV } from '../../agent/evaluation-suite.js';
import { isGroupRunning } from '../../agent/process.js';
import { runIteration, type RunnerDeps } from '../../agent/runner.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { DocumentArtefactSchema } from '../../lambdas/core/schemas/evaluation.js';
import { serializePrd } from '../../lambdas/core/ralph/prd.js';
import type { RunConfigInput } from '../../lambdas/core/schemas/config.js';
import {
  EvaluationSuiteSchema,
  type EvaluationSuite,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-io.js';
import type { Clock } from '../../lambdas/ports.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
import { makeIteration, makeRun, makeTasks } from '../support/records.js';
import { templates } from '../support/templates.js';

const temporary: string[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `ralph-suite-${label}-`));
  temporary.push(dir);
  return dir;
}

async function repository(files: Record<string, string> = {}): Promise<string> {
  const made = await makeGitRepo({
    'README.md': '# demo\n',
    '.gitignore': 'node_modules/\n',
    ...files,
  });
  temporary.push(made.path);
  return made.path;
}

/** A directory outside the repository holding the files a suite copies to its output. */
async function fixtures(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('fixtures');
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

function copying(from: string): string {
  return `cp "${from}"/* "$${SUITE_OUTPUT_ENV}"/`;
}

function suite(fields: Partial<EvaluationSuite> & { command: string }): EvaluationSuite {
  return EvaluationSuiteSchema.parse(fields);
}

function story(id: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id,
    title: `Story ${id}`,
    description: 'As a user I want a thing so that I can do it.',
    acceptance_criteria: ['It works'],
    ...overrides,
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Every change, untracked file included (ignored ones are not changes). */
async function status(repo: string): Promise<string> {
  return git(repo, 'status', '--porcelain', '--untracked-files=all');
}

describe('Function: runEvaluationSuite', () => {
  it('runs the command in the repository and returns its documents, sorted by file name', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      'b.json': story('S-2', { services: ['tack'], extra: 'kept' }),
      'a.json': story('S-1'),
      'notes.txt': 'not a document',
    });
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'runner-secret');
    const command = [
      copying(from),
      `printf '%s|%s|%s|%s' "$PWD" "$${SUITE_OUTPUT_ENV}" "$CI" "\${AWS_SECRET_ACCESS_KEY:-withheld}" > "${from}/seen"`,
      'echo done',
    ].join(' && ');

    // Act
    const run = await runEvaluationSuite({ dir: repo, suite: suite({ command }) });

    // Assess
    expect(run).toMatchObject({ status: 'ok', exitCode: 0, problems: [], outputTail: 'done' });
    expect(run.documents).toEqual([
      {
        kind: 'document',
        id: 'S-1',
        documentType: 'user_story',
        content: expect.objectContaining({ id: 'S-1', services: [], source_conversations: [] }),
      },
      {
        kind: 'document',
        id: 'S-2',
        documentType: 'user_story',
        content: expect.objectContaining({ services: ['tack'], extra: 'kept' }),
      },
    ]);
    const [cwd, outputDir, ci, secret] = (await readFile(join(from, 'seen'), 'utf8')).split('|');
    expect(cwd).toBe(await git(repo, 'rev-parse', '--show-toplevel'));
    expect(outputDir).toBe(join(cwd ?? '', '.ralph-eval'));
    expect(ci).toBe('true');
    expect(secret).toBe('withheld');
    expect(await exists(join(repo, '.ralph-eval'))).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('refuses invalid JSON and invalid stories with the file and the path, and keeps the rest', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      '1-good.json': story('S-1'),
      '2-broken.json': '{"id": "S-2",',
      '3-no-criteria.json': story('S-3', { acceptance_criteria: 'It works' }),
      '4-bad-service.json': story('S-4', { services: ['ok', 7] }),
      '5-good.json': story('S-5'),
    });

    // Act
    const run = await runEvaluationSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.status).toBe('ok');
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1', 'S-5']);
    expect(run.problems).toHaveLength(3);
    expect(run.problems[0]).toMatch(/^2-broken\.json: \(root\): not valid JSON \(.+\)$/);
    expect(run.problems[1]).toMatch(/^3-no-criteria\.json: acceptance_criteria: expected array/);
    expect(run.problems[2]).toMatch(/^4-bad-service\.json: services\[1\]: expected string/);
  });

  it("names a document by its id when that is a safe id, else by its file's name", async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      'by-field.json': story('S-9'),
      'by-file.json': story('has spaces'),
      'also-by-file.json': story('../escape'),
      'no good.json': story('no good either'),
    });

    // Act
    const run = await runEvaluationSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['also-by-file', 'S-9', 'by-file']);
    expect(run.documents[2]?.content).toMatchObject({ id: 'has spaces' });
    expect(run.problems).toEqual([
      "no good.json: id: neither the document's id nor the file name is a safe artefact id",
    ]);
  });

  it('keeps any JSON for a document type without a known shape, named by the file', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'list.json': '[1, 2]', 'summary.json': '{"id": 3}' });

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(from), documentType: 'summary' }),
    });

    // Assess
    expect(run.problems).toEqual([]);
    expect(run.documents).toEqual([
      { kind: 'document', id: 'list', documentType: 'summary', content: [1, 2] },
      { kind: 'document', id: 'summary', documentType: 'summary', content: { id: 3 } },
    ]);
  });

  it('refuses a document whose id is already taken, naming the file that has it', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({
      // First by name (code point order): its id comes from the file name.
      'S-1.json': story('S 1', { title: 'first' }),
      'a.json': story('S-1', { title: 'second' }),
      'b.json': story('S-1', { title: 'third' }),
      'c.json': story('S-2'),
    });

    // Act
    const run = await runEvaluationSuite({ dir: repo, suite: suite({ command: copying(from) }) });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1', 'S-2']);
    expect(run.documents[0]?.content).toMatchObject({ title: 'first' });
    expect(run.problems).toEqual([
      'a.json: id: "S-1" is already the id of S-1.json; refused',
      'b.json: id: "S-1" is already the id of S-1.json; refused',
    ]);
  });

  it('keeps exactly maxDocuments documents, and fails one more without keeping any', async () => {
    // Prepare
    const repo = await repository();
    const two = await fixtures({ 'a.json': story('S-1'), 'b.json': story('S-2') });
    const three = await fixtures({
      'a.json': story('S-1'),
      'b.json': story('S-2'),
      'c.json': story('S-3'),
    });

    // Act
    const atLimit = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(two), maxDocuments: 2 }),
    });
    const overLimit = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(three), maxDocuments: 2 }),
    });

    // Assess
    expect(atLimit).toMatchObject({ status: 'ok', problems: [] });
    expect(atLimit.documents).toHaveLength(2);
    expect(overLimit).toMatchObject({ status: 'failed', documents: [], exitCode: 0 });
    expect(overLimit.problems).toEqual([
      'the suite wrote 3 documents, more than maxDocuments (2); none was kept',
    ]);
    expect(await status(repo)).toBe('');
  });

  it('refuses a document larger than maxDocumentBytes and reads one exactly that size', async () => {
    // Prepare
    const repo = await repository();
    const text = story('S-1');
    // One byte more: the same length of id, and a trailing space.
    const from = await fixtures({ 'a.json': text, 'b.json': `${story('S-2')} ` });
    const limit = Buffer.byteLength(text);

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(from) }),
      maxDocumentBytes: limit,
    });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    expect(run.problems).toEqual([`b.json: (root): ${limit + 1} bytes, more than ${limit}`]);
  });

  it('reports a failing suite as failed and still keeps what it wrote', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'a.json': story('S-1') });

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: `${copying(from)} && echo "input 2 crashed" >&2 && exit 3` }),
    });

    // Assess
    expect(run).toMatchObject({ status: 'failed', exitCode: 3, outputTail: 'input 2 crashed' });
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    expect(run.problems).toEqual(['the suite exited 3']);
  });

  it('ends the whole process group on timeout and keeps what was written before', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'a.json': story('S-1') });
    const pidFile = join(await tempDir('pid'), 'pid');
    const command = `echo $$ > "${pidFile}"; ${copying(from)}; echo started; sleep 100 & sleep 100`;

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command, timeoutSeconds: 1 }),
      killGraceMs: 200,
    });

    // Assess
    expect(run).toMatchObject({ status: 'timed_out', exitCode: null, outputTail: 'started' });
    expect(run.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(run.durationMs).toBeLessThan(3_000);
    expect(run.problems).toEqual(['the suite timed out after 1s; its processes were ended']);
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await isGroupRunning(pid)).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('stops the suite when aborted', async () => {
    // Prepare
    const repo = await repository();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: 'sleep 100' }),
      signal: controller.signal,
      killGraceMs: 200,
    });

    // Assess
    expect(run.status).toBe('failed');
    expect(run.durationMs).toBeLessThan(3_000);
    expect(run.problems[0]).toBe(
      'the suite was stopped (the run was cancelled or the runner told to stop)',
    );
  });

  it.each([
    ['../outside', 'is outside the repository'],
    ['a/../../outside', 'is outside the repository'],
    ['/tmp/ralph-absolute-eval', 'must be relative to the repository root'],
    ['.', 'is the repository root'],
    ['.git/eval', "is inside the repository's .git"],
  ])('refuses outputDir %s without running the suite', async (outputDir, why) => {
    // Prepare
    const repo = await repository();
    const marker = join(await tempDir('marker'), 'ran');

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: `touch "${marker}"`, outputDir }),
    });

    // Assess
    expect(run).toMatchObject({ status: 'failed', documents: [], exitCode: null });
    expect(run.problems).toEqual([`outputDir "${outputDir}" ${why}; the suite was not run`]);
    expect(await exists(marker)).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('refuses an outputDir reached through a symbolic link that leads out of the repository', async () => {
    // Prepare
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'precious.txt'), 'keep me');
    const repo = await repository();
    await symlink(outside, join(repo, 'link'));
    await git(repo, 'add', 'link');
    await git(repo, '-c', 'user.name=t', '-c', 'user.email=t@e.invalid', 'commit', '-qm', 'link');

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: 'true', outputDir: 'link/eval' }),
    });

    // Assess
    expect(run.status).toBe('failed');
    expect(run.problems).toEqual([
      'outputDir "link/eval" leads out of the repository through a symbolic link; the suite was not run',
    ]);
    expect(await readFile(join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('empties an output dir that already holds files, and removes the directories it made', async () => {
    // Prepare
    const repo = await repository({ 'build/eval/stale.json': story('S-0') });
    const from = await fixtures({ 'a.json': story('S-1') });

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(from), outputDir: 'build/eval' }),
    });
    const nested = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: copying(from), outputDir: 'fresh/deeper/eval' }),
    });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    // The committed stale document is put back: the working copy is as the commit left it.
    expect(await readFile(join(repo, 'build/eval/stale.json'), 'utf8')).toBe(story('S-0'));
    expect(run.problems).toEqual([
      'the suite left the working tree changed (build/eval/stale.json); restored',
    ]);
    expect(nested).toMatchObject({ status: 'ok', problems: [] });
    expect(await exists(join(repo, 'fresh'))).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('puts back the files, HEAD and branch the suite changed, and keeps ignored files', async () => {
    // Prepare
    const repo = await repository();
    const head = await git(repo, 'rev-parse', 'HEAD');
    const command = [
      'mkdir -p node_modules && echo cache > node_modules/cache.txt',
      'echo changed >> README.md',
      'echo junk > junk.txt && mkdir -p tmp && echo junk > tmp/junk.txt',
      'git add junk.txt && git -c user.name=s -c user.email=s@e.invalid commit -qm suite',
      'echo more >> README.md',
    ].join(' && ');

    // Act
    const run = await runEvaluationSuite({ dir: repo, suite: suite({ command }) });

    // Assess
    expect(run.status).toBe('ok');
    expect(run.problems).toEqual([
      'the suite wrote no *.json documents to .ralph-eval',
      expect.stringMatching(
        /^the suite moved HEAD \(main at [0-9a-f]{12} → main at [0-9a-f]{12}\); restored$/,
      ),
      'the suite left the working tree changed (README.md, tmp/junk.txt); restored',
    ]);
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(await status(repo)).toBe('');
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(await readFile(join(repo, 'node_modules/cache.txt'), 'utf8')).toBe('cache\n');
  });

  it('only reports what the suite changed in a tree that was not clean before', async () => {
    // Prepare
    const repo = await repository();
    await writeFile(join(repo, 'mine.txt'), 'uncommitted work\n');

    // Act
    const run = await runEvaluationSuite({
      dir: repo,
      suite: suite({ command: 'echo changed >> README.md' }),
    });

    // Assess
    expect(run.problems).toContain('the suite left the working tree changed (README.md)');
    expect(await readFile(join(repo, 'mine.txt'), 'utf8')).toBe('uncommitted work\n');
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\nchanged\n');
  });
});

describe('Function: runIteration (evaluation suite)', () => {
  const NOW = new Date('2025-01-15T12:34:56.000Z');
  const clock: Clock = { now: () => NOW };
  let runs: DynamoRunStore;
  let artefacts: S3ArtefactStore;
  let runCounter = 0;

  useEmulatorStores((stores) => ({ runs, artefacts } = stores));

  // Mirrors the scenario of runner.test.ts: a committed repository, a run with one planned
  // iteration on the first story, and its plan.json.
  async function scenario(config: Pick<RunConfigInput, 'gates' | 'evaluation'>) {
    runCounter += 1;
    const runId = `suite-${runCounter}`;
    const prd = makePrd(2);
    const repo = await repository({ 'prd.json': serializePrd(prd) });
    const run = makeRun({
      runId,
      repo: { kind: 'local', path: repo },
      prdPath: 'prd.json',
      branchName: prd.branchName,
      project: prd.project,
      storiesTotal: prd.userStories.length,
      iterationsStarted: 1,
      config: {
        agent: { command: 'echo "$RALPH_STORY_ID" > feature.txt', timeoutSeconds: 30 },
        ...config,
      },
    });
    await runs.createRun(run, makeTasks(runId, prd.userStories.length));
    const story = prd.userStories[0];
    if (!story) throw new Error('the prd needs a story');
    await runs.createIteration(
      makeIteration({ runId, iteration: 1, taskId: story.id, taskTitle: story.title }),
    );
    await artefacts.put(
      artefactKeys.iteration(runId, 1, 'plan.json'),
      JSON.stringify({
        runId,
        iteration: 1,
        attempt: 1,
        story,
        iterationsLeft: 5,
        storiesRemaining: prd.userStories.length,
      }),
    );
    const deps: RunnerDeps = {
      runs,
      artefacts,
      clock,
      templates,
      cancelPollMs: 100,
      killGraceMs: 500,
      workspaceRoot: await tempDir('workspaces'),
    };
    return { runId, repo, deps };
  }

  /** A suite that writes two stories, takes a moment, and leaves a marker outside the repo. */
  async function suiteConfig(marker: string): Promise<RunConfigInput['evaluation']> {
    const from = await fixtures({
      'first.json': story('S-1'),
      'second.json': story('S-2'),
      'broken.json': '{',
    });
    return {
      enabled: true,
      suite: {
        command: `touch "${marker}"; ${copying(from)} && test -f feature.txt && sleep 0.3 && echo "suite ran"`,
      },
    };
  }

  it('uploads the documents of a passed iteration and lists their ids in result.json', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const { runId, repo, deps } = await scenario({ evaluation: await suiteConfig(marker) });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual(['S-1', 'S-2']);
    const stored = IterationResultSchema.parse(
      JSON.parse(await artefacts.getText(artefactKeys.iteration(runId, 1, 'result.json'))),
    );
    expect(stored.documents).toEqual(['S-1', 'S-2']);
    for (const id of ['S-1', 'S-2']) {
      const key = artefactKeys.evaluationArtefact(runId, 1, id);
      expect(key).toBe(`runs/${runId}/iterations/1/artefacts/${id}.json`);
      const document = DocumentArtefactSchema.parse(JSON.parse(await artefacts.getText(key)));
      expect(document).toMatchObject({
        kind: 'document',
        id,
        documentType: 'user_story',
        content: { id, title: `Story ${id}` },
      });
    }
    const suiteKey = artefactKeys.iteration(runId, 1, 'suite.json');
    expect(result.artefacts.suite).toBe(suiteKey);
    expect(JSON.parse(await artefacts.getText(suiteKey))).toMatchObject({
      status: 'ok',
      exitCode: 0,
      documents: ['S-1', 'S-2'],
      problems: [expect.stringMatching(/^broken\.json: \(root\): not valid JSON/)],
      outputTail: 'suite ran',
    });
    // The suite ran after the commit (feature.txt was committed), which it is not part of.
    expect(await exists(marker)).toBe(true);
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(result.commit);
    expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).not.toContain(
      '.ralph-eval',
    );
    expect(await status(repo)).toBe('');
    // Counted with the gates (there are none here), not as runner overhead.
    expect(result.durations.gatesMs).toBeGreaterThanOrEqual(300);
  });

  it('leaves out a document whose upload failed, and says why in suite.json', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const { runId, deps } = await scenario({ evaluation: await suiteConfig(marker) });
    const refused = artefactKeys.evaluationArtefact(runId, 1, 'S-2');
    const events: string[] = [];
    const failing: RunnerDeps = {
      ...deps,
      artefacts: {
        put: (key, body, contentType) =>
          key === refused
            ? Promise.reject(new Error('S3 refused it'))
            : artefacts.put(key, body, contentType),
        getText: (key) => artefacts.getText(key),
        exists: (key) => artefacts.exists(key),
        locate: (key) => artefacts.locate(key),
      },
      log: (event) => {
        if (event.event === 'artefact-write-failed') events.push(String(event.artefact));
      },
    };

    // Act
    const result = await runIteration(failing, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual(['S-1']);
    expect(events).toEqual([refused]);
    const report = JSON.parse(
      await artefacts.getText(artefactKeys.iteration(runId, 1, 'suite.json')),
    ) as { documents: string[]; problems: string[] };
    expect(report.documents).toEqual(['S-1']);
    expect(report.problems).toContain('S-2: upload failed: S3 refused it');
  });

  it('runs the suite on the restored code when the iteration fails', async () => {
    // Prepare: the suite checks for the agent's feature.txt, which the reset removes.
    const marker = join(await tempDir('marker'), 'ran');
    const failed = await scenario({
      gates: [{ name: 'test', command: 'exit 1' }],
      evaluation: await suiteConfig(marker),
    });

    // Act
    const result = await runIteration(failed.deps, { runId: failed.runId, iteration: 1 });

    // Assess: scored on the same documents; the suite saw the code without the change.
    expect(result.outcome).toBe('gates_failed');
    expect(await exists(marker)).toBe(true);
    expect(result.documents).toEqual(['S-1', 'S-2']);
    const report = JSON.parse(
      await artefacts.getText(artefactKeys.iteration(failed.runId, 1, 'suite.json')),
    ) as { status: string; exitCode: number | null };
    expect(report.status).toBe('failed');
    expect(report.exitCode).not.toBe(0);
    expect(await git(failed.repo, 'status', '--porcelain')).toBe('');
  });

  it('does not run the suite when evaluation is off', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const off = await scenario({
      evaluation: { ...(await suiteConfig(marker)), enabled: false },
    });

    // Act
    const result = await runIteration(off.deps, { runId: off.runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual([]);
    expect(result.artefacts.suite).toBeUndefined();
    expect(await exists(marker)).toBe(false);
  });
});
