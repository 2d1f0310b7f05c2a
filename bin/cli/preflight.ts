/**
 * What `ralph run` checks on this machine before anything is written, so a mistake the
 * first iteration would meet is a message that names the fix (exit 2), not an iteration
 * after iteration failing the same way: the repository (there, a git working tree, with a
 * commit) and the programs the agent and the gates start.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { RunConfig } from '../../lambdas/core/schemas/config.js';
import { CliError } from './errors.js';
import { runnerFiles } from '../../agent/working-copy/runner-files.js';
import { firstFew, uncommittedChanges } from '../../agent/working-copy/workspace.js';
import { statusPorcelain } from '../../agent/git/status.js';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import { EXIT } from './exit-codes.js';

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 10_000;

/** The repository exists, is a directory, and is a git working tree with at least one commit. */
export async function checkRepository(repoPath: string): Promise<void> {
  await checkGitDirectory(repoPath);
  if (!(await git(repoPath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])))
    throw refused(
      `${repoPath} has no commits yet: commit what is there first (\`git add -A && git commit -m init\`)`,
    );
}

/**
 * The working tree has nothing uncommitted but Ralph's own files (prd.json, progress.txt,
 * `.last-branch`, the archive): an iteration would only find it dirty and pause, spending
 * an iteration and running no agent. The same reading of `git status` as the runner's.
 */
export async function checkCleanTree(
  repoPath: string,
  prdPath: string,
  then: string,
): Promise<void> {
  const entries = await statusPorcelain({ dir: repoPath, spawner: new ChildProcessSpawner() });
  const dirty = uncommittedChanges(runnerFiles(repoPath, prdPath), entries);
  if (dirty.length === 0) return;
  throw new CliError(
    `${repoPath} has uncommitted changes (${firstFew(dirty.map((entry) => entry.path))}): commit or stash them, then ${then}`,
    EXIT.notPossible,
  );
}

/**
 * The repository exists, is a directory, and is a git working tree (commits or not: `ralph
 * init` writes the files a first commit holds).
 */
export async function checkGitDirectory(repoPath: string): Promise<void> {
  const found = await stat(repoPath).catch(() => undefined);
  if (!found) throw refused(`the repository ${repoPath} does not exist: check --repo`);
  if (!found.isDirectory()) throw refused(`the repository ${repoPath} is not a directory`);
  if (!(await git(repoPath, ['rev-parse', '--git-dir'])))
    throw refused(
      `${repoPath} is not a git repository: run \`git init && git add -A && git commit -m init\` there first`,
    );
}

/** Whether `git args...` succeeds in the repository. */
function git(repoPath: string, args: string[]): Promise<boolean> {
  return run('git', ['-C', repoPath, ...args], { timeout: GIT_TIMEOUT_MS }).then(
    () => true,
    () => false,
  );
}

/** Shell words that are not programs on the PATH (builtins, keywords, grouping). */
const SHELL_WORDS = new Set([
  ':',
  '.',
  '[',
  '!',
  '{',
  '(',
  'cd',
  'echo',
  'eval',
  'exec',
  'exit',
  'export',
  'printf',
  'read',
  'set',
  'test',
  'true',
  'false',
  'command',
  'if',
  'for',
  'while',
  'until',
  'case',
  'source',
  'unset',
  'type',
  'wait',
  'trap',
  'umask',
]);

/**
 * Every program the agent's and the gates' commands start first is there: on the PATH, or
 * (a path) an executable file, relative paths from the repository. Commands the shell
 * reads in ways a first word cannot show (builtins, a group, a subshell) are left alone.
 */
export async function checkCommands(config: RunConfig, repoPath: string): Promise<void> {
  const commands = [
    ...(config.agent.command ? [{ where: 'agent.command', command: config.agent.command }] : []),
    ...config.gates.map((gate) => ({ where: `gate ${gate.name}`, command: gate.command })),
  ];
  for (const { where, command } of commands) {
    const program = firstProgram(command);
    if (program === undefined || (await runnable(program, repoPath))) continue;
    throw refused(
      `${where}: "${program}" is ${program.includes('/') ? 'not an executable file' : 'not on the PATH'} (in \`${command}\`): install it or fix the command`,
    );
  }
}

/** The first word of a command that names a program, past `NAME=value` assignments. */
export function firstProgram(command: string): string | undefined {
  for (const word of command.trim().split(/\s+/)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    if (word === '' || SHELL_WORDS.has(word) || /["'$`\\(){};|&<>]/.test(word)) return undefined;
    return word;
  }
  return undefined;
}

/**
 * Whether `program` can be started: on the PATH (a bare name), or an executable file (a
 * path, relative ones from the repository).
 */
export async function runnable(program: string, repoPath: string): Promise<boolean> {
  const candidates = program.includes('/')
    ? [isAbsolute(program) ? program : resolve(repoPath, program)]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    const ok = await access(candidate, constants.X_OK).then(
      () => stat(candidate).then((found) => found.isFile()),
      () => false,
    );
    if (ok) return true;
  }
  return false;
}

function refused(message: string): CliError {
  return new CliError(message, EXIT.invalidInput);
}
