/**
 * The evaluation suite: a command of the project's (`run.config.evaluation.suite`) that runs
 * its pipeline on fixed test data and writes one JSON document per input. The runner runs
 * it after a counted commit, in the committed working copy, and each document becomes an
 * evaluation artefact of kind `document` (shared/design/dual-mode-evaluation.md).
 *
 * The suite runs the agent's code, so it is run like a gate (runCommand: own process
 * group, timeout, the runner's credentials withheld), and whatever it leaves behind in the
 * working copy is undone: the next iteration refuses a dirty tree.
 */
import { lstat, mkdir, readdir, readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import {
  StoryDocumentSchema,
  type DocumentArtefact,
} from '../../lambdas/core/schemas/evaluation.js';
import type { EvaluationSuite } from '../../lambdas/core/schemas/evaluation-config.js';
import { formatZodIssues } from '../../lambdas/core/shared/validation.js';
import { OUTPUT_TAIL_LINES, tailLines } from './gates.js';
import type { Repo } from '../git/command.js';
import { detachHead, headRef, setHeadRef, updateRef } from '../git/refs.js';
import { clean, quitPendingOperations, resetHard } from '../git/reset.js';
import { status } from '../git/status.js';
import { runCommand, TailBuffer, type CommandResult } from '../process/process.js';
import type { Spawner } from '../process/spawner.js';

/** The environment variable that tells the suite where to write (an absolute path). */
export const SUITE_OUTPUT_ENV = 'RALPH_EVAL_OUTPUT_DIR';
/** A larger document is refused unread (it would be uploaded and put before a judge). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 1024 * 1024;

const OUTPUT_TAIL_MAX_CHARS = 8_000;
const FULL_OUTPUT_MAX_CHARS = 2 * 1024 * 1024;
/** What an artefact id may look like (artefactKeys.evaluationArtefact refuses the rest). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Document types whose content has a known shape; any other type's content is kept as is. */
const CONTENT_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  user_story: StoryDocumentSchema,
};
const DIRTY_FILES_SHOWN = 5;

export type SuiteStatus = 'ok' | 'failed' | 'timed_out';

export interface RunEvaluationSuiteInput {
  /** The repository root (the working copy the counted commit was made in). */
  dir: string;
  /** Starts the suite and the git commands that tidy up after it. */
  spawner: Spawner;
  suite: EvaluationSuite;
  /** Ends the suite's process group (the run was cancelled, or the runner must stop). */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  maxDocumentBytes?: number;
}

export interface SuiteRun {
  /** `ok`: the command exited 0 in time and wrote at most `maxDocuments` documents. */
  status: SuiteStatus;
  /** Sorted by file name; what was refused is in `problems` instead. */
  documents: DocumentArtefact[];
  /** One line per refused file (`name.json: zod.path: message`) or suite fault. */
  problems: string[];
  exitCode: number | null;
  durationMs: number;
  /** The last lines of stdout and stderr, interleaved as they arrived. */
  outputTail: string;
}

/**
 * Empties `suite.outputDir`, runs `suite.command` with `sh -c` in `dir` (with
 * `RALPH_EVAL_OUTPUT_DIR` set to the absolute output dir and `CI=true`), reads the `*.json`
 * documents it wrote, then removes the output dir and undoes anything else the suite left
 * in the working copy (changed or new files, a moved HEAD or branch). Documents are read
 * whatever the exit: a pipeline that failed on one input may have written the others, and
 * `status` says the set may be incomplete. Never throws for anything the suite does.
 *
 * @example
 * const run = await runEvaluationSuite({ dir: repo, spawner, suite: config.evaluation.suite, signal });
 * for (const document of run.documents) console.log(document.id);
 * if (run.status !== 'ok') console.log(run.problems.join('\n'));
 */
export async function runEvaluationSuite(input: RunEvaluationSuiteInput): Promise<SuiteRun> {
  const started = performance.now();
  const { dir, suite } = input;
  const repo: Repo = { dir, spawner: input.spawner };
  const located = await locateOutputDir(dir, suite.outputDir);
  if ('problem' in located)
    return {
      status: 'failed',
      documents: [],
      problems: [located.problem],
      exitCode: null,
      durationMs: performance.now() - started,
      outputTail: '',
    };

  const before = await treeState(repo);
  const output = new TailBuffer(FULL_OUTPUT_MAX_CHARS);
  let outcome: CommandResult;
  let collected: Collected;
  let tidied: string[];
  await rm(located.path, { recursive: true, force: true });
  const created = await mkdir(located.path, { recursive: true });
  try {
    outcome = await runCommand({
      spawner: input.spawner,
      command: suite.command,
      cwd: dir,
      env: { CI: 'true', [SUITE_OUTPUT_ENV]: located.path },
      timeoutMs: suite.timeoutSeconds * 1000,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.killGraceMs === undefined ? {} : { killGraceMs: input.killGraceMs }),
      onOutput: (_stream, text) => output.push(text),
    });
    collected = await collectDocuments(
      located,
      suite,
      input.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
    );
  } finally {
    tidied = await tidyUp(repo, located.path, created, before);
  }

  const exitProblem = describeExit(outcome, suite);
  const text = outcome.spawnError ? `${output.text()}${outcome.spawnError}\n` : output.text();
  return {
    status: outcome.timedOut
      ? 'timed_out'
      : exitProblem !== undefined || collected.tooMany
        ? 'failed'
        : 'ok',
    documents: collected.documents,
    problems: [
      ...(exitProblem === undefined ? [] : [exitProblem]),
      ...collected.problems,
      ...tidied,
    ],
    exitCode: outcome.exitCode,
    durationMs: performance.now() - started,
    outputTail: tailLines(text, OUTPUT_TAIL_LINES, OUTPUT_TAIL_MAX_CHARS),
  };
}

interface OutputDir {
  /** Absolute, under the repository's real path. */
  path: string;
  /** As the problems name it: relative to the repository root. */
  shown: string;
}

/**
 * Where the suite writes: strictly inside the repository (never the root itself, never in
 * `.git`), and not reached through a symbolic link that leads out of it, since the
 * directory is emptied with `rm -r`.
 */
async function locateOutputDir(
  dir: string,
  outputDir: string,
): Promise<OutputDir | { problem: string }> {
  const refuse = (why: string) => ({
    problem: `outputDir "${outputDir}" ${why}; the suite was not run`,
  });
  if (isAbsolute(outputDir)) return refuse('must be relative to the repository root');
  const root = await realpath(dir);
  const path = resolve(root, outputDir);
  const inRepo = relative(root, path);
  if (inRepo === '') return refuse('is the repository root');
  if (isOutside(inRepo)) return refuse('is outside the repository');
  if (inRepo.split(sep)[0] === '.git') return refuse("is inside the repository's .git");
  const existing = await deepestExisting(path);
  if (isOutside(relative(root, await realpath(existing))))
    return refuse('leads out of the repository through a symbolic link');
  return { path, shown: inRepo.split(sep).join('/') };
}

function isOutside(fromRoot: string): boolean {
  return fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot);
}

async function deepestExisting(path: string): Promise<string> {
  for (let at = path; ; at = dirname(at)) {
    try {
      await lstat(at);
      return at;
    } catch {
      if (dirname(at) === at) return at;
    }
  }
}

function describeExit(outcome: CommandResult, suite: EvaluationSuite): string | undefined {
  if (outcome.spawnError !== undefined) return `the suite could not start: ${outcome.spawnError}`;
  if (outcome.timedOut)
    return `the suite timed out after ${suite.timeoutSeconds}s; its processes were ended`;
  if (outcome.aborted)
    return 'the suite was stopped (the run was cancelled or the runner told to stop)';
  if (outcome.exitCode !== 0)
    return outcome.exitCode === null
      ? `the suite was ended by ${outcome.signal ?? 'a signal'}`
      : `the suite exited ${outcome.exitCode}`;
  return undefined;
}

interface Collected {
  documents: DocumentArtefact[];
  problems: string[];
  tooMany: boolean;
}

/**
 * The `*.json` files directly in the output dir, by name. More files than `maxDocuments` is
 * a suite fault and none is read: a subset would change which ids the iterations compare.
 */
async function collectDocuments(
  outputDir: OutputDir,
  suite: EvaluationSuite,
  maxBytes: number,
): Promise<Collected> {
  let names: string[];
  try {
    names = (await readdir(outputDir.path, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return {
      documents: [],
      problems: [`${outputDir.shown} was gone after the suite ran: no documents`],
      tooMany: false,
    };
  }
  if (names.length > suite.maxDocuments)
    return {
      documents: [],
      problems: [
        `the suite wrote ${names.length} documents, more than maxDocuments (${suite.maxDocuments}); none was kept`,
      ],
      tooMany: true,
    };

  const documents: DocumentArtefact[] = [];
  const problems: string[] = [];
  const fileOfId = new Map<string, string>();
  for (const name of names) {
    const read = await readDocument(join(outputDir.path, name), name, suite.documentType, maxBytes);
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    const earlier = fileOfId.get(read.id);
    if (earlier !== undefined) {
      problems.push(`${name}: id: "${read.id}" is already the id of ${earlier}; refused`);
      continue;
    }
    fileOfId.set(read.id, name);
    documents.push({
      kind: 'document',
      id: read.id,
      documentType: suite.documentType,
      content: read.content,
    });
  }
  if (names.length === 0)
    problems.push(`the suite wrote no *.json documents to ${outputDir.shown}`);
  return { documents, problems, tooMany: false };
}

async function readDocument(
  path: string,
  name: string,
  documentType: string,
  maxBytes: number,
): Promise<{ id: string; content: unknown } | { problem: string }> {
  const refuse = (where: string, why: string) => ({ problem: `${name}: ${where}: ${why}` });
  const { size } = await stat(path);
  if (size > maxBytes) return refuse('(root)', `${size} bytes, more than ${maxBytes}`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    return refuse('(root)', `not valid JSON (${(error as Error).message})`);
  }
  const schema = CONTENT_SCHEMAS[documentType];
  let content = raw;
  if (schema) {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return { problem: `${name}: ${formatZodIssues(parsed.error).join('; ')}` };
    content = parsed.data;
  }
  const id = documentId(raw, name);
  if (id === undefined)
    return refuse('id', "neither the document's id nor the file name is a safe artefact id");
  return { id, content };
}

/** The document's own `id` when it is usable in an S3 key, else the file's base name. */
function documentId(raw: unknown, name: string): string | undefined {
  const own =
    typeof raw === 'object' && raw !== null && 'id' in raw
      ? (raw as { id: unknown }).id
      : undefined;
  if (typeof own === 'string' && SAFE_ID.test(own)) return own;
  const base = name.slice(0, -'.json'.length);
  return SAFE_ID.test(base) ? base : undefined;
}

interface TreeState {
  head: string | undefined;
  /** `refs/heads/<branch>`; undefined on a detached HEAD. */
  ref: string | undefined;
  entries: Set<string>;
}

async function treeState(repo: Repo): Promise<TreeState> {
  const [found, ref] = await Promise.all([status(repo), headRef(repo)]);
  return {
    head: found.head,
    ref,
    entries: new Set(found.entries.map(({ code, path }) => `${code} ${path}`)),
  };
}

/**
 * Removes the output dir (and the parents made for it), then puts back HEAD, its branch and
 * the working tree if the suite moved or changed them. The tree is reset only when it was
 * clean before the suite (as it is after a commit): otherwise its earlier changes could not
 * be told from the suite's, and what the suite left is only reported. Returns the problems.
 */
async function tidyUp(
  repo: Repo,
  outputDir: string,
  created: string | undefined,
  before: TreeState,
): Promise<string[]> {
  const problems: string[] = [];
  try {
    await rm(outputDir, { recursive: true, force: true });
    if (created !== undefined)
      for (let at = dirname(outputDir); at.length >= created.length; at = dirname(at))
        await rmdir(at).catch(() => undefined);
    const after = await treeState(repo);
    const moved = after.head !== before.head || after.ref !== before.ref;
    const left = [...after.entries].filter((entry) => !before.entries.has(entry));
    if (!moved && left.length === 0) return problems;
    const restorable = before.head !== undefined && before.entries.size === 0;
    if (moved)
      problems.push(
        `the suite moved HEAD (${describeHead(before)} → ${describeHead(after)})${restorable ? '; restored' : ''}`,
      );
    if (left.length > 0) {
      const shown = left.slice(0, DIRTY_FILES_SHOWN).map((entry) => entry.slice(3));
      const more = left.length > shown.length ? ` and ${left.length - shown.length} more` : '';
      problems.push(
        `the suite left the working tree changed (${shown.join(', ')}${more})${restorable ? '; restored' : ''}`,
      );
    }
    if (restorable && before.head !== undefined) await restore(repo, before, before.head);
  } catch (error) {
    problems.push(
      `the working copy could not be tidied after the suite: ${(error as Error).message}`,
    );
  }
  return problems;
}

async function restore(repo: Repo, before: TreeState, head: string): Promise<void> {
  await quitPendingOperations(repo);
  if (before.ref !== undefined) {
    await updateRef(repo, before.ref, head);
    await setHeadRef(repo, before.ref);
  } else await detachHead(repo, head);
  await resetHard(repo, head);
  await clean(repo);
}

function describeHead(state: TreeState): string {
  const sha = state.head?.slice(0, 12) ?? 'no commit';
  return state.ref === undefined
    ? `detached at ${sha}`
    : `${state.ref.replace(/^refs\/heads\//, '')} at ${sha}`;
}
