/**
 * What the evaluation-suite tests run a suite in, and give it to write: story documents
 * copied to its output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import {
  runEvaluationSuite,
  SUITE_OUTPUT_ENV,
  type RunEvaluationSuiteInput,
} from '../../agent/checks/evaluation-suite.js';
import {
  EvaluationSuiteSchema,
  type EvaluationSuite,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { git, makeGitRepo } from './git-repo.js';

/** Writes `files` into `dir` (outside the repository) and returns `dir`. */
export async function writeFixtures(dir: string, files: Record<string, string>): Promise<string> {
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

/** A suite command that copies every fixture in `from` to the suite's output dir. */
export function copying(from: string): string {
  return `cp "${from}"/* "$${SUITE_OUTPUT_ENV}"/`;
}

/** A user-story document as JSON text. */
export function story(id: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id,
    title: `Story ${id}`,
    description: 'As a user I want a thing so that I can do it.',
    acceptance_criteria: ['It works'],
    ...overrides,
  });
}

const temporary: string[] = [];
const spawner = new ChildProcessSpawner();

/** The suite run as the runner runs it: through plain child processes. */
export function runSuite(
  input: Omit<RunEvaluationSuiteInput, 'spawner'>,
): ReturnType<typeof runEvaluationSuite> {
  return runEvaluationSuite({ spawner, ...input });
}

export function suite(fields: Partial<EvaluationSuite> & { command: string }): EvaluationSuite {
  return EvaluationSuiteSchema.parse(fields);
}

/**
 * Registers the test file's clean-up, and returns how its tests make directories, a
 * committed repository, and fixtures outside it.
 */
export function useSuiteScratch(): {
  tempDir(label: string): Promise<string>;
  repository(files?: Record<string, string>): Promise<string>;
  fixtures(files: Record<string, string>): Promise<string>;
} {
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const tempDir = async (label: string) => {
    const dir = await mkdtemp(join(tmpdir(), `ralph-suite-${label}-`));
    temporary.push(dir);
    return dir;
  };
  return {
    tempDir,
    repository: async (files = {}) => {
      const made = await makeGitRepo({
        'README.md': '# demo\n',
        '.gitignore': 'node_modules/\n',
        ...files,
      });
      temporary.push(made.path);
      return made.path;
    },
    /** A directory outside the repository holding the files a suite copies to its output. */
    fixtures: async (files) => writeFixtures(await tempDir('fixtures'), files),
  };
}

/** Every change, untracked file included (ignored ones are not changes). */
export function status(repo: string): Promise<string> {
  return git(repo, 'status', '--porcelain', '--untracked-files=all');
}
