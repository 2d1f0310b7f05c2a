/**
 * Typed wrappers over the `git` command line. Every call has a timeout, never prompts, and
 * never needs (or touches) the user's git configuration: the commit identity and the
 * credentials are passed per call.
 */
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { execa } from 'execa';

/** Who commits, without reading the user's config; a signing setup there must not apply. */
const IDENTITY = [
  '-c',
  'user.name=ralph-cloud',
  '-c',
  'user.email=ralph-cloud@users.noreply.local',
  '-c',
  'commit.gpgsign=false',
];
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
  const result = await execa('git', args, {
    cwd,
    env: { GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', ...credentialEnv(options.token) },
    extendEnv: true,
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

/** `git status --porcelain`, one entry per file (untracked directories listed file by file). */
export async function statusPorcelain(cwd: string): Promise<StatusEntry[]> {
  const out = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
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
 * Commits the index as a child of HEAD without moving any branch, and returns its sha:
 * the evidence of a change that is about to be reset.
 */
export async function commitDetached(cwd: string, message: string): Promise<string> {
  const tree = await git(cwd, ['write-tree']);
  const head = await currentHead(cwd);
  return git(cwd, [...IDENTITY, 'commit-tree', tree, ...(head ? ['-p', head] : [])], {
    input: message,
  });
}

/**
 * `git diff base..head` as bytes (a file in a legacy encoding must survive as it is); with
 * `binary`, a patch that `git apply` can replay exactly. The user's diff settings
 * (external tools, prefixes, colour) are overridden.
 */
export async function diff(
  cwd: string,
  base: string,
  head: string,
  options: { binary?: boolean } = {},
): Promise<Uint8Array> {
  const result = await execa(
    'git',
    [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      ...(options.binary ? ['--binary'] : []),
      `${base}..${head}`,
    ],
    {
      cwd,
      env: { GIT_TERMINAL_PROMPT: '0' },
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
