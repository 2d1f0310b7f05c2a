import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { jsonOf, ralphProcess, runCli } from '../support/cli.js';
import { waitUntil } from '../support/local-runs.js';

const TALKER = fileURLToPath(new URL('../fixtures/agents/live-talker.mjs', import.meta.url));
const STREAM_JSON = fileURLToPath(
  new URL('../fixtures/claude-code/stream-json.jsonl', import.meta.url),
);

/** `ralph ...` in a process of its own, its stdout collected as it comes. */
function ralph(args: string[]): { child: ReturnType<typeof ralphProcess>; stdout: () => string } {
  let stdout = '';
  const child = ralphProcess(args);
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return { child, stdout: () => stdout };
}

/** Waits until `text` is in what the process printed (or it has exited). */
async function waitForOutput(process: ReturnType<typeof ralph>, text: string): Promise<void> {
  await waitUntil(
    async () => {
      if (process.child.exitCode !== null)
        throw new Error(`exited before "${text}":\n${(await process.child).all ?? ''}`);
      return process.stdout().includes(text);
    },
    { timeoutMs: 60_000 },
  );
}

/** `ralph run --follow` and `ralph watch RUN --follow`: the agent's output as it comes. */
describe('CLI: ralph run --follow, ralph watch --follow', () => {
  let dataDir: string;
  let gates: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-follow-'));
    gates = await mkdtemp(join(tmpdir(), 'ralph-follow-gates-'));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
    await rm(gates, { recursive: true, force: true });
  });

  it('shows the agent output live in the run and in a watch from another process, before the iteration line', async () => {
    // Prepare: an agent that holds its later lines back until each follower has shown the
    // earlier ones, so that those can only have reached it while the agent ran.
    const repo = await makeGitRepo({ 'prd.json': JSON.stringify(makePrd(1)) });
    cleanups.push(repo.cleanup);
    const agent = `${process.execPath} ${TALKER} ${STREAM_JSON} ${gates}`;

    // Act: the run, with --follow.
    const run = ralph([
      'run',
      '--repo',
      repo.path,
      '--agent',
      agent,
      '--follow',
      '--data-dir',
      dataDir,
    ]);
    await waitForOutput(run, '    talker: waiting for the run');
    const runId = /^run (\S+) ·/m.exec(run.stdout())?.[1] ?? '';
    await writeFile(join(gates, 'seen-by-run'), '');

    // Act: a watch from another process, which shows what came before it started too.
    const watch = ralph(['watch', runId, '--follow', '--data-dir', dataDir]);
    await waitForOutput(watch, '    talker: waiting for the watcher');
    await writeFile(join(gates, 'seen-by-watch'), '');
    await waitForOutput(watch, '    talker: done');
    const ran = await run.child;
    // The watch reads the run through the run's process, which has ended: it has shown what
    // it is here for, and whether it still read the end before that process went is a race.
    watch.child.kill('SIGTERM');
    await watch.child;

    // Assess: both show the agent's lines, indented, all before the iteration's line.
    expect(ran.exitCode, ran.all).toBe(0);
    expect(run.stdout()).toContain(`run ${runId}: completed`);
    for (const stdout of [run.stdout(), watch.stdout()]) {
      const shown = stdout.split('\n');
      const found = shown.findIndex((line) => /^#1 +US-001 +✓ passed/.test(line));
      const iterationLine = found >= 0 ? found : shown.length;
      const agentLines = [
        '    ● session · claude-sonnet-4-5-20250929',
        '    › Read src/app.ts',
        '    ✗ Error: FAIL test/cart.test.ts > total > multiplies by quantity',
        '    ✓ done in 42.5s · $0.12 · 6 turns',
        '    talker: a line in two writes',
        '    talker: a word on stderr',
        '    talker: waiting for the run',
        '    talker: waiting for the watcher',
        '    talker: hostile \\x1b]0;pwned\\x07 green \uFFFD\uFFFD end',
        '    talker: done',
      ].map((line) => shown.indexOf(line));
      expect(
        agentLines.every((index) => index >= 0),
        stdout,
      ).toBe(true);
      expect(Math.max(...agentLines)).toBeLessThan(iterationLine);
      expect(stdout).not.toContain('\x1b]');
    }
    expect(run.stdout()).toMatch(/^#1 +US-001 +✓ passed/m);
    // The run's own lines start at column 0, so they still stand out.
    expect(run.stdout()).toMatch(/^run \S+ · Demo/m);
  });

  it('refuses --follow with --json and with --endpoint, before starting anything', async () => {
    const withJson = await runCli(['--json', 'run', '--follow', '--data-dir', dataDir]);
    const withEndpoint = await runCli([
      'watch',
      'r-any',
      '--follow',
      '--endpoint',
      'http://127.0.0.1:9',
      '--data-dir',
      dataDir,
    ]);

    expect(withJson.exitCode).toBe(2);
    expect(jsonOf<{ error: { message: string } }>(withJson).error.message).toMatch(
      /--follow .* --json/,
    );
    expect(withEndpoint.exitCode).toBe(2);
    expect(withEndpoint.stderr).toContain('transcript.jsonl');
  });
});
