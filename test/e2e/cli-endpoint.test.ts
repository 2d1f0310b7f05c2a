import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { startApiServer, type ApiServer } from '../../local/api-server/api-server.js';
import { writeServeFile } from '../../local/api-server/serve-file.js';
import { localApiEntry } from '../../local/local-api.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { remoteBackend } from '../../bin/cli/backend/with-backend.js';
import { jsonOf, runCli } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';

/** What differs between two runs of the same input: ids, commits, times. */
function normalised(stdout: string): string[] {
  return stdout
    .split('\n')
    .slice(1) // the first line names where the run goes (local stack, or the API)
    .map((line) =>
      line
        .replace(/r\d{8}-\d{6}-[0-9a-f]+/g, 'RUN')
        .replace(/\b[0-9a-f]{8}\b/g, 'COMMIT')
        .replace(/\d+\.\d+s/g, 'T')
        .replace(/ +/g, ' ')
        .replace(/─+/g, '─'),
    )
    .filter((line) => !/^(artefacts|details): /.test(line));
}

/** The `ralph` CLI against `ralph serve`'s API (in this process), as a user drives it. */
describe('CLI: ralph --endpoint', () => {
  let stack: LocalStack;
  let server: ApiServer;
  let dataDir: string;
  let endpoint: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-endpoint-'));
    stack = await openLocalStack({ retryIntervalMs: 0, cancelPollMs: 100 });
    const credential = {
      accessKeyId: `RALPHLOCAL${randomBytes(4).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(24).toString('base64url'),
    };
    const { region } = stack.endpoints;
    server = await startApiServer({ entry: localApiEntry(stack), credential, region });
    endpoint = server.url;
    await writeServeFile(dataDir, { endpoint, region, ...credential });
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function repo() {
    const made = await makeGitRepo({ 'prd.json': JSON.stringify(makePrd(2), null, 2) });
    cleanups.push(made.cleanup);
    return made.path;
  }
  const runArgs = (path: string) => [
    'run',
    '--repo',
    path,
    '--agent',
    WRITING_AGENT,
    '--gate',
    'has-file=test -f "US-001.txt"',
  ];

  let runId = '';

  /** Starts a run through the API as any client would, and returns its id. */
  async function stackApiStart(path: string, agent: string): Promise<string> {
    const backend = await remoteBackend(endpoint, { dataDir });
    const { runId: id } = await backend.start({
      repo: path,
      prd: makePrd(2),
      config: { agent: { command: agent } },
    });
    return id;
  }

  it('runs a whole run through the API and prints what local mode prints', async () => {
    // Arrange
    const localDir = await mkdtemp(join(tmpdir(), 'ralph-cli-local-'));
    cleanups.push(() => rm(localDir, { recursive: true, force: true }));
    const local = await runCli([...runArgs(await repo()), '--data-dir', localDir]);

    // Act
    const remote = await runCli([
      ...runArgs(await repo()),
      '--endpoint',
      endpoint,
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(remote.exitCode, remote.stderr).toBe(0);
    expect(remote.stdout.split('\n')[0]).toMatch(
      new RegExp(`^ralph-cloud · API ${endpoint} · agent: cat > /dev/null.*\\(flag\\)$`),
    );
    expect(normalised(remote.stdout)).toEqual(normalised(local.stdout));
    expect(remote.stdout).toContain(`--endpoint ${endpoint}`);
    runId = /run (r\d{8}-\d{6}-[0-9a-f]+)/.exec(remote.stdout)![1]!;
  });

  it('reads the run back: status, show, an artefact through its redirect, runs by status', async () => {
    const at = ['--endpoint', endpoint, '--data-dir', dataDir];
    const status = jsonOf<{ run: RunRecord }>(await runCli(['status', runId, '--json', ...at]));
    const prompt = await runCli([
      'show',
      runId,
      '--iteration',
      '1',
      '--artefact',
      'prompt.md',
      ...at,
    ]);
    const runs = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--status', 'completed', '--json', ...at]),
    );

    expect(status.run).toMatchObject({ runId, status: 'completed', storiesPassed: 2 });
    expect(prompt.stdout).toMatch(/^# Ralph iteration 1: US-001/);
    expect(runs.runs.map((run) => run.runId)).toContain(runId);
  });

  it('start → watch → complete: watch follows a running run to its end (endpoint from RALPH_ENDPOINT)', async () => {
    // Arrange: a run started through the API whose agent takes a moment per story.
    const path = await repo();
    const started = await stackApiStart(
      path,
      'sleep 1; cat > /dev/null; echo done > "$RALPH_STORY_ID.txt"',
    );
    process.env.RALPH_ENDPOINT = endpoint;
    try {
      // Act
      const watched = await runCli(['watch', started, '--data-dir', dataDir]);

      // Assess
      expect(watched.exitCode, watched.stderr).toBe(0);
      expect(watched.stdout).toMatch(/^#1 +US-001 +✓ passed/m);
      expect(watched.stdout).toMatch(/^#2 +US-002 +✓ passed/m);
      expect(watched.stdout).toContain(`run ${started}: completed`);
    } finally {
      delete process.env.RALPH_ENDPOINT;
    }
  });

  it('refuses a dirty working tree before starting; a run stopped at its limit is continued by resume --endpoint, prd.json where Ralph keeps it', async () => {
    // Arrange: prd.json under scripts/ralph/, and uncommitted work of the user's.
    const made = await makeGitRepo({
      'scripts/ralph/prd.json': JSON.stringify(makePrd(2), null, 2),
      'notes.md': 'mine\n',
    });
    cleanups.push(made.cleanup);
    await writeFile(join(made.path, 'notes.md'), 'work in progress\n');
    const at = ['--endpoint', endpoint, '--data-dir', dataDir];
    const start = ['run', '--repo', made.path, '--agent', WRITING_AGENT, '-n', '1', ...at];

    // Act
    const refused = await runCli(start);
    await git(
      made.path,
      '-c',
      'user.name=u',
      '-c',
      'user.email=u@example.invalid',
      'commit',
      '-qam',
      'wip',
    );
    const stopped = await runCli(start);
    const id = /run (r\d{8}-\d{6}-[0-9a-f]+)/.exec(stopped.stdout)?.[1] ?? '';
    const resumed = await runCli(['resume', id, '--max-iterations', '3', ...at]);

    // Assess
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain('has uncommitted changes (notes.md)');
    expect(stopped.exitCode, stopped.stderr).toBe(1);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`resuming run ${id} in segment 2`));
    expect(resumed.stdout).toMatch(/^#2 +US-002 +✓ passed/m);
    const prd = JSON.parse(await readFile(join(made.path, 'scripts/ralph/prd.json'), 'utf8')) as {
      userStories: { passes: boolean }[];
    };
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, true]);
    expect(existsSync(join(made.path, 'prd.json'))).toBe(false);
  });

  it('refuses what the state does not allow with local mode exit codes', async () => {
    const cancel = await runCli(['cancel', runId, '--endpoint', endpoint, '--data-dir', dataDir]);
    const missing = await runCli([
      'status',
      'r20991231-000000-ffffff',
      '--endpoint',
      endpoint,
      '--data-dir',
      dataDir,
    ]);

    expect([cancel.exitCode, cancel.stderr]).toEqual([
      4,
      expect.stringMatching(/already ended \(completed\)/),
    ]);
    expect(missing.exitCode).toBe(4);
  });

  it('refuses a local path for a deployment before sending anything', async () => {
    // Arrange
    const before = (await stack.deps.runs.listRuns()).runs.length;

    // Act
    const result = await runCli([
      ...runArgs(await repo()),
      '--endpoint',
      'https://abc123.execute-api.eu-west-1.amazonaws.com',
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot reach: push the repository and pass its git URL/);
    expect((await stack.deps.runs.listRuns()).runs).toHaveLength(before);
  });

  it('says to start ralph serve when a loopback endpoint has no credential', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'ralph-cli-empty-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));

    const result = await runCli(['runs', '--endpoint', endpoint, '--data-dir', empty]);

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/serve\.json is missing\. Start `ralph serve` first/);
  });
});
