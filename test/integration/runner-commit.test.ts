import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { serializePrd } from '../../lambdas/core/ralph/prd.js';
import { codebasePatterns, recentEntries } from '../../lambdas/core/ralph/progress-log.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { git, makePrd } from '../support/git-repo.js';
import {
  artefact,
  failingPuts,
  isClean,
  NOW,
  REPORT,
  scenario,
  storedResult,
  useRunnerScenarios,
} from '../support/runner-scenario.js';

let runs: DynamoRunStore;
let artefacts: S3ArtefactStore;

useRunnerScenarios((stores) => ({ runs, artefacts } = stores));

describe('Function: runIteration — the counted commit', () => {
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
});
