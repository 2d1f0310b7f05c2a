import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { git } from '../support/git-repo.js';
import { isClean, REPORT, scenario, useRunnerScenarios } from '../support/runner-scenario.js';

useRunnerScenarios();

/** The story's change, and notes for whoever edits these files next, root and nested. */
const NOTE_TAKING = [
  'echo "export const feature = 1;" > src/feature.ts',
  'echo "- src/: one file per feature" >> AGENTS.md',
  'printf "# src\\n- features export a const\\n" > src/AGENTS.md',
  'echo "- run the gate before committing" >> CLAUDE.md',
].join('; ');

const FILES = { 'AGENTS.md': '# Notes\n', 'CLAUDE.md': '# Claude\n', 'src/index.ts': '' };
const GATES = [{ name: 'feature', command: 'test -f src/feature.ts' }];
const NOTES = ['AGENTS.md', 'CLAUDE.md', 'src/AGENTS.md'];

describe('Function: runIteration — AGENTS.md and CLAUDE.md', () => {
  it("keeps the agent's notes, root and nested, in the iteration's counted commit", async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: `cat > /dev/null; ${NOTE_TAKING}; ${REPORT}`,
      files: FILES,
      gates: GATES,
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.filesChanged).toEqual(expect.arrayContaining([...NOTES, 'src/feature.ts']));
    const committed = await git(repo, 'show', '--name-only', '--format=', result.commit!);
    expect(committed.split('\n')).toEqual(expect.arrayContaining([...NOTES, 'src/feature.ts']));
    expect(await isClean(repo)).toBe(true);
    expect(await readFile(join(repo, 'AGENTS.md'), 'utf8')).toBe(
      '# Notes\n- src/: one file per feature\n',
    );
    expect(await readFile(join(repo, 'src/AGENTS.md'), 'utf8')).toContain('features export');
  });

  it('keeps notes the agent committed itself on the branch', async () => {
    // Prepare
    const commit =
      'git add -A && git -c user.name=a -c user.email=a@example.invalid commit -qm notes';
    const { runId, repo, deps } = await scenario({
      agent: `cat > /dev/null; ${NOTE_TAKING}; ${commit}; ${REPORT}`,
      files: FILES,
      gates: GATES,
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.filesChanged).toEqual(expect.arrayContaining(NOTES));
    expect(await git(repo, 'log', '--format=%s', '-2')).toBe('feat: US-001 - Story 1\nnotes');
    expect(await git(repo, 'show', 'HEAD:src/AGENTS.md')).toContain('features export');
    expect(await isClean(repo)).toBe(true);
  });
});
