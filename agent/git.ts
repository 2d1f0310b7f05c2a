/**
 * Typed wrappers over the `git` command line. Every call has a timeout, never prompts, and
 * never needs (or touches) the user's git configuration: the commit identity and the
 * credentials are passed per call.
 *
 * The agent may have rewritten the repository's `.git/config` and hooks, so git runs
 * without hooks or an fsmonitor command, and without the runner's credentials in its
 * environment (agent/environment.ts): whatever the agent planted there runs, at worst,
 * with no more than the agent had.
 */
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { execa } from 'execa';
import { untrustedEnvironment } from './environment.js';

/** Who commits, without reading the user's config; a signing setup there must not apply. */
const IDENTITY = [
  '-c',
  'user.name=ralph-cloud',
  '-c',
  'user.email=ralph-cloud@users.noreply.local',
  '-c',
  'commit.gpgsign=false',
];
/** No hook and no fsmonitor command the agent could have configured runs for the runner. */
const NO_PLANTED_COMMANDS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
const DEFAULT_TIMEOUT_MS = 60_000;
/** Clone and push move whole histories over the network. */
const NETWORK_TIMEOUT_MS = 10 * 60_000;

export interface GitOptions {
  timeoutMs?: number;
  /** Sent as an `Authorization` header to the remote; never written to disk or argv. */
  token?: string;
  input?: string;
}

/** A git command that failed; the message holds git's stderr, with any credential removed. */
export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'GitError';
  }
}

/**
 * Runs `git args...` in `cwd` and returns stdout (final newline removed).
 *
 * @example
 * const sha = await git(repo, ['rev-parse', 'HEAD']);
 */
export async function git(
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<string> {
  const result = await execa('git', [...NO_PLANTED_COMMANDS, ...args], {
    cwd,
    env: gitEnvironment(credentialEnv(options.token)),
    extendEnv: false,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    reject: false,
    stripFinalNewline: true,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.failed) {
    const why = result.timedOut
      ? `timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
      : result.stderr || result.shortMessage;
    throw new GitError(
      redact(`git ${args[0] ?? ''} failed: ${why}`, options.token),
      result.exitCode,
    );
  }
  return result.stdout;
}

function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...untrustedEnvironment(process.env),
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    ...extra,
  };
}

/**
 * The token goes in through `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`:
 * the same effect as `-c http.extraHeader=...`, but it stays out of the process list and out
 * of the command line that error messages repeat. Basic auth with `x-access-token` is what
 * GitHub (and most forges) accept for a token over HTTPS.
 */
function credentialEnv(token: string | undefined): Record<string, string> {
  if (token === undefined || token === '') return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

function redact(text: string, token: string | undefined): string {
  let out = text.replace(/(\/\/)[^/@\s]+@/g, '$1***@');
  if (token) {
    out = out.split(token).join('***');
    out = out.split(Buffer.from(`x-access-token:${token}`).toString('base64')).join('***');
  }
  return out;
}

async function succeeds(cwd: string, args: readonly string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

/** True when `dir` is the top of a git working tree (not merely somewhere inside one). */
export async function isRepository(dir: string): Promise<boolean> {
  try {
    const top = await git(dir, ['rev-parse', '--show-toplevel']);
    return (await realpath(top)) === (await realpath(dir));
  } catch {
    return false;
  }
}

export interface StatusEntry {
  /** Two-letter porcelain code: `??` untracked, ` M` modified, `A ` added, ... */
  code: string;
  path: string;
  /** For renames and copies: where the file came from. */
  from?: string;
}

/**
 * `git status --porcelain`, one entry per file (untracked directories listed file by file),
 * paths relative to the repository root; with `paths`, only under those.
 */
export async function statusPorcelain(
  cwd: string,
  paths?: readonly string[],
): Promise<StatusEntry[]> {
  const out = await git(cwd, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    ...(paths ? ['--', ...paths.map((path) => `:(top)${path}`)] : []),
  ]);
  const fields = out.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    const entry: StatusEntry = { code, path: field.slice(3) };
    // A rename or copy is followed by its source path as a field of its own.
    if (code.includes('R') || code.includes('C')) {
      entry.from = fields[i + 1];
      i += 1;
    }
    entries.push(entry);
  }
  return entries;
}

/** The sha HEAD points at; undefined in a repository without commits. */
export async function currentHead(cwd: string): Promise<string | undefined> {
  try {
    return await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    return undefined;
  }
}

/** The full ref HEAD names (`refs/heads/<branch>`); undefined on a detached HEAD. */
export async function headRef(cwd: string): Promise<string | undefined> {
  try {
    return await git(cwd, ['symbolic-ref', '--quiet', 'HEAD']);
  } catch {
    return undefined;
  }
}

/** Points HEAD at `ref` (`refs/heads/<branch>`), leaving the index and working tree alone. */
export async function setHeadRef(cwd: string, ref: string): Promise<void> {
  await git(cwd, ['symbolic-ref', 'HEAD', ref]);
}

/** Every local branch: full ref name (`refs/heads/...`) to the sha it points at. */
export async function branchHeads(cwd: string): Promise<Map<string, string>> {
  const out = await git(cwd, ['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/heads']);
  const heads = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [ref, sha] = line.split('\0');
    if (ref && sha) heads.set(ref, sha);
  }
  return heads;
}

/** Whether `ancestor` is `descendant` or in its history. */
export function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  return succeeds(cwd, ['merge-base', '--is-ancestor', ancestor, descendant]);
}

/**
 * Forgets a rebase, cherry-pick, revert or `am` left half done, without moving HEAD or any
 * branch (each `--quit` only removes that operation's state).
 */
export async function quitPendingOperations(cwd: string): Promise<void> {
  for (const command of ['rebase', 'cherry-pick', 'revert', 'am'])
    await succeeds(cwd, [command, '--quit']);
}

/** The checked-out branch; undefined on a detached HEAD. */
export async function currentBranch(cwd: string): Promise<string | undefined> {
  try {
    return await git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  } catch {
    return undefined;
  }
}

export function branchExists(cwd: string, name: string): Promise<boolean> {
  return succeeds(cwd, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`]);
}

/** Whether `origin/<name>` is known (after a clone or fetch). */
export function remoteBranchExists(cwd: string, name: string): Promise<boolean> {
  return succeeds(cwd, ['show-ref', '--verify', '--quiet', `refs/remotes/origin/${name}`]);
}

/**
 * The branch new work starts from: `origin/HEAD` when the remote names one, else `main` or
 * `master` when they exist, else the current branch.
 */
export async function defaultBranch(cwd: string): Promise<string | undefined> {
  try {
    const ref = await git(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
    return ref.replace(/^refs\/remotes\/origin\//, '');
  } catch {
    // No remote HEAD: fall through to the conventional names.
  }
  for (const name of ['main', 'master']) if (await branchExists(cwd, name)) return name;
  return currentBranch(cwd);
}

/**
 * Checks out `name`, creating it at `createFrom` (a branch, remote branch or sha) when it
 * does not exist locally.
 */
export async function checkoutBranch(
  cwd: string,
  name: string,
  createFrom?: string,
): Promise<void> {
  if (await branchExists(cwd, name)) {
    if ((await currentBranch(cwd)) !== name) await git(cwd, ['checkout', '--quiet', name]);
    return;
  }
  await git(cwd, [
    'checkout',
    '--quiet',
    '--no-track',
    '-b',
    name,
    ...(createFrom ? [createFrom] : []),
  ]);
}

/** Stages every change, deletions and untracked files included; `exclude` paths are left out. */
export async function addAll(cwd: string, exclude: readonly string[] = []): Promise<void> {
  await git(cwd, ['add', '--all', '--', ...pathspecs(exclude)]);
}

/**
 * Stages what changed under `paths` (repository-relative; a directory with a trailing `/`),
 * deletions included. Paths without changes, and ignored ones, are left out rather than
 * refused (as `git add <path>` would refuse them).
 */
export async function addPaths(cwd: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const entries = await statusPorcelain(cwd, paths);
  const changed = entries.flatMap((entry) => [entry.path, ...(entry.from ? [entry.from] : [])]);
  if (changed.length > 0)
    await git(cwd, ['add', '--all', '--', ...changed.map((path) => `:(top,literal)${path}`)]);
}

/** Whether the index differs from HEAD outside `exclude`. */
export async function hasStagedChanges(
  cwd: string,
  exclude: readonly string[] = [],
): Promise<boolean> {
  return !(await succeeds(cwd, ['diff', '--cached', '--quiet', '--', ...pathspecs(exclude)]));
}

/** Paths whose staged content differs from `base`, outside `exclude`. */
export async function stagedFiles(
  cwd: string,
  base: string,
  exclude: readonly string[] = [],
): Promise<string[]> {
  const out = await git(cwd, [
    'diff',
    '--cached',
    '--name-only',
    '-z',
    base,
    '--',
    ...pathspecs(exclude),
  ]);
  return out.split('\0').filter((path) => path !== '');
}

/** The whole tree from the top, minus `exclude` (paths relative to the repository root). */
function pathspecs(exclude: readonly string[]): string[] {
  return [':(top)', ...exclude.map((path) => `:(top,exclude)${path}`)];
}

/** Commits the index as ralph-cloud and returns the new sha. */
export async function commit(
  cwd: string,
  message: string,
  options: { allowEmpty?: boolean } = {},
): Promise<string> {
  await git(
    cwd,
    [
      ...IDENTITY,
      'commit',
      '--quiet',
      '--no-verify',
      ...(options.allowEmpty ? ['--allow-empty'] : []),
      '--file=-',
    ],
    { input: message },
  );
  return git(cwd, ['rev-parse', 'HEAD']);
}

/**
 * Commits the index as a child of `parent` (default: HEAD) without moving any branch, and
 * returns its sha: the evidence of a change that is about to be reset.
 */
export async function commitDetached(
  cwd: string,
  message: string,
  parent?: string,
): Promise<string> {
  const tree = await git(cwd, ['write-tree']);
  const head = parent ?? (await currentHead(cwd));
  return git(cwd, [...IDENTITY, 'commit-tree', tree, ...(head ? ['-p', head] : [])], {
    input: message,
  });
}

/**
 * `git diff base..head` (or, without `head`, from `base` to the index) as bytes (a file in a
 * legacy encoding must survive as it is); with `binary`, a patch that `git apply` can
 * replay exactly. The user's diff settings (external tools, prefixes, colour) are
 * overridden.
 */
export async function diff(
  cwd: string,
  base: string,
  head: string | undefined,
  options: { binary?: boolean } = {},
): Promise<Uint8Array> {
  const result = await execa(
    'git',
    [
      ...NO_PLANTED_COMMANDS,
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      ...(options.binary ? ['--binary'] : []),
      ...(head === undefined ? ['--cached', base] : [`${base}..${head}`]),
    ],
    {
      cwd,
      env: gitEnvironment(),
      extendEnv: false,
      encoding: 'buffer',
      stdin: 'ignore',
      timeout: DEFAULT_TIMEOUT_MS,
      reject: false,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (result.failed)
    throw new GitError(
      `git diff failed: ${new TextDecoder().decode(result.stderr)}`,
      result.exitCode,
    );
  return result.stdout;
}

/** Paths that differ between two commits (renames under their new name), outside `exclude`. */
export async function filesChanged(
  cwd: string,
  base: string,
  head: string,
  exclude: readonly string[] = [],
): Promise<string[]> {
  const out = await git(cwd, [
    'diff',
    '--name-only',
    '-z',
    `${base}..${head}`,
    '--',
    ...pathspecs(exclude),
  ]);
  return out.split('\0').filter((path) => path !== '');
}

export async function updateRef(cwd: string, ref: string, sha: string): Promise<void> {
  await git(cwd, ['update-ref', ref, sha]);
}

export async function resolveRef(cwd: string, ref: string): Promise<string | undefined> {
  try {
    return await git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    return undefined;
  }
}

export async function resetHard(cwd: string, sha: string): Promise<void> {
  await git(cwd, ['reset', '--quiet', '--hard', sha]);
}

/**
 * Removes untracked files and directories. Never `-x`: ignored files (node_modules, build
 * caches) survive. `keep` paths (relative to the repository root) survive too.
 */
export async function clean(cwd: string, keep: readonly string[] = []): Promise<void> {
  await git(cwd, ['clean', '--quiet', '-f', '-d', ...keep.flatMap((path) => ['-e', `/${path}`])]);
}

/** Clones `url` into `dir` (which must not exist or be empty). */
export async function clone(url: string, dir: string, token?: string): Promise<void> {
  await git(dirname(dir), ['clone', '--quiet', '--no-hardlinks', '--', url, dir], {
    timeoutMs: NETWORK_TIMEOUT_MS,
    ...(token === undefined ? {} : { token }),
  });
}

/** Pushes a local branch (or any ref) to `origin` under the same name. */
export async function push(cwd: string, ref: string, token?: string): Promise<void> {
  const target = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  await git(cwd, ['push', '--quiet', '--no-verify', 'origin', `${target}:${target}`], {
    timeoutMs: NETWORK_TIMEOUT_MS,
    ...(token === undefined ? {} : { token }),
  });
}
