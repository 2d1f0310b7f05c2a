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
import { untrustedEnvironment } from './environment.js';
import { sharedSpawnServer, type RunResult } from './spawn-client.js';

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
/** The user's diff settings (external tools, text conversion, prefixes, colour) overridden. */
const PATCH_OPTIONS = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];
/**
 * The runner's commit does not wait for `git maintenance run --auto` (gc): housekeeping of
 * the working copy is its owner's business, and in the cloud the clone is thrown away.
 */
const NO_HOUSEKEEPING = ['-c', 'maintenance.auto=false', '-c', 'gc.auto=0'];
const DEFAULT_TIMEOUT_MS = 60_000;
/** Clone and push move whole histories over the network. */
const NETWORK_TIMEOUT_MS = 10 * 60_000;
/** Between SIGTERM and SIGKILL for a git command past its timeout. */
const KILL_GRACE_MS = 5_000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface GitOptions {
  timeoutMs?: number;
  /** Sent as an `Authorization` header to the remote; never written to disk or argv. */
  token?: string;
  input?: string;
  /**
   * Git looks for the repository no higher than `cwd` (`GIT_CEILING_DIRECTORIES` set to its
   * parent): a command in a directory that is not the top of a working tree fails.
   */
  topOnly?: boolean;
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
  const result = await runGit(
    cwd,
    args,
    options.topOnly ? { ...options, ceiling: dirname(await realpath(cwd)) } : options,
  );
  if (result.failure !== undefined)
    throw new GitError(
      redact(`git ${args[0] ?? ''} failed: ${result.failure}`, options.token),
      result.exitCode,
    );
  return stripFinalNewline(result.stdout.toString('utf8'));
}

interface GitProcessResult {
  stdout: Buffer;
  /** Why the command failed (git's stderr, or what went wrong); undefined when it exited 0. */
  failure?: string;
  exitCode: number | undefined;
}

/**
 * git runs from the spawn server: a fork of this (possibly large) process would stall its
 * event loop for each of the runner's git calls (agent/spawn-client.ts).
 */
const spawner = sharedSpawnServer;

/**
 * One git process: past `timeoutMs` it gets SIGTERM, then SIGKILL. Never rejects; a
 * command that could not run, or whose spawn server went away, is a failure.
 */
async function runGit(
  cwd: string,
  args: readonly string[],
  options: GitOptions & { ceiling?: string },
): Promise<GitProcessResult> {
  let result: RunResult;
  try {
    result = await spawner.run({
      file: 'git',
      args: [...NO_PLANTED_COMMANDS, ...args],
      cwd,
      env: gitEnvironment({
        ...credentialEnv(options.token),
        ...(options.ceiling === undefined ? {} : { GIT_CEILING_DIRECTORIES: options.ceiling }),
      }),
      ...(options.input === undefined ? {} : { input: options.input }),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      killGraceMs: KILL_GRACE_MS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    return { stdout: Buffer.alloc(0), exitCode: undefined, failure: (error as Error).message };
  }
  const { exitCode, signal } = result;
  const errorText = stripFinalNewline(result.stderr.toString('utf8'));
  const failure =
    result.problem ??
    result.startError ??
    (exitCode === 0
      ? undefined
      : errorText || (signal ? `killed by ${signal}` : `exited with code ${exitCode ?? '?'}`));
  return {
    stdout: result.stdout,
    exitCode: exitCode ?? undefined,
    ...(failure === undefined ? {} : { failure }),
  };
}

/** What execa's `stripFinalNewline` does: one final `\n` or `\r\n` goes. */
function stripFinalNewline(text: string): string {
  if (!text.endsWith('\n')) return text;
  return text.slice(0, text.endsWith('\r\n') ? -2 : -1);
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

export interface RepositoryStatus {
  /** The sha HEAD points at; undefined in a repository without commits. */
  head: string | undefined;
  /** Every changed or untracked file, as `statusPorcelain` lists them. */
  entries: StatusEntry[];
}

/**
 * HEAD and the working tree's changes in one git process: `git status --porcelain=v2
 * --branch` (without the ahead/behind count, which can walk a long history). Entries are
 * those of `statusPorcelain`, with the same two-letter codes.
 */
export async function status(
  cwd: string,
  options: Pick<GitOptions, 'topOnly'> = {},
): Promise<RepositoryStatus> {
  const out = await git(
    cwd,
    ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '-z', '--untracked-files=all'],
    options,
  );
  const fields = out.split('\0');
  let head: string | undefined;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field.startsWith('# branch.oid ')) {
      const oid = field.slice('# branch.oid '.length);
      head = oid === '(initial)' ? undefined : oid;
      continue;
    }
    // `1 XY sub mH mI mW hH hI path`, `2 XY ... Xscore path` + the source path as the next
    // field, `u XY sub m1 m2 m3 mW h1 h2 h3 path`, `? path`; other headers start with `#`.
    const kind = field[0];
    const code = field.slice(2, 4).replace(/\./g, ' ');
    if (kind === '1') entries.push({ code, path: afterFields(field, 8) });
    else if (kind === 'u') entries.push({ code, path: afterFields(field, 10) });
    else if (kind === '2') {
      entries.push({ code, path: afterFields(field, 9), from: fields[i + 1] ?? '' });
      i += 1;
    } else if (kind === '?' || kind === '!')
      entries.push({ code: `${kind}${kind}`, path: field.slice(2) });
  }
  return { head, entries };
}

/** What follows the first `count` space-separated fields (a path may hold spaces). */
function afterFields(line: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n += 1) at = line.indexOf(' ', at) + 1;
  return line.slice(at);
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
  return (await listRefs(cwd)).heads;
}

export interface Refs {
  /** Every local branch: full ref name (`refs/heads/...`) to the sha it points at. */
  heads: Map<string, string>;
  /**
   * The branch HEAD is on (`refs/heads/...`), when HEAD names a branch that exists;
   * undefined on a detached HEAD or one that names a missing branch (tell those apart with
   * `headRef`).
   */
  current: string | undefined;
  /** With `remotes`: origin's remote-tracking branches (`refs/remotes/origin/...`) to shas. */
  remotes: Map<string, string>;
}

/**
 * The local branches (and, with `remotes`, origin's remote-tracking branches) and the one
 * HEAD is on, in one git process.
 */
export async function listRefs(
  cwd: string,
  options: Pick<GitOptions, 'topOnly'> & { remotes?: boolean } = {},
): Promise<Refs> {
  const out = await git(
    cwd,
    [
      'for-each-ref',
      '--format=%(HEAD)%00%(refname)%00%(objectname)',
      'refs/heads',
      ...(options.remotes ? ['refs/remotes/origin'] : []),
    ],
    options.topOnly ? { topOnly: true } : {},
  );
  const refs: Refs = { heads: new Map(), current: undefined, remotes: new Map() };
  for (const line of out.split('\n')) {
    const [mark, ref, sha] = line.split('\0');
    if (!ref || !sha) continue;
    if (ref.startsWith('refs/heads/')) {
      refs.heads.set(ref, sha);
      if (mark === '*') refs.current = ref;
    } else refs.remotes.set(ref, sha);
  }
  return refs;
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
    if ((await currentBranch(cwd)) !== name) await switchBranch(cwd, name);
    return;
  }
  await createBranch(cwd, name, createFrom);
}

/** Checks out the existing local branch `name`. */
export async function switchBranch(cwd: string, name: string): Promise<void> {
  await git(cwd, ['checkout', '--quiet', name]);
}

/** Creates the local branch `name` at `from` (a branch, remote branch or sha; default HEAD) and checks it out. */
export async function createBranch(cwd: string, name: string, from?: string): Promise<void> {
  await git(cwd, ['checkout', '--quiet', '--no-track', '-b', name, ...(from ? [from] : [])]);
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

/**
 * What the index holds beyond `base`, outside `exclude`, from one git process: the paths
 * (renames under their new name) and the patch (with `binary`, one `git apply` replays
 * exactly). `--numstat -z` lists the paths unquoted, NUL-terminated, and an empty record
 * ends the list before the patch starts: two processes (`--name-only`, then the patch)
 * cost twice the spawn, which in a large process is most of the call.
 */
export async function stagedChange(
  cwd: string,
  base: string,
  exclude: readonly string[] = [],
  options: { binary?: boolean } = {},
): Promise<{ files: string[]; patch: Uint8Array }> {
  const result = await runGit(
    cwd,
    [
      'diff',
      ...PATCH_OPTIONS,
      ...(options.binary ? ['--binary'] : []),
      '--numstat',
      '--patch',
      '-z',
      '--cached',
      base,
      '--',
      ...pathspecs(exclude),
    ],
    {},
  );
  if (result.failure !== undefined)
    throw new GitError(`git diff failed: ${result.failure}`, result.exitCode);
  return splitNumstatPatch(result.stdout);
}

/**
 * `--numstat -z --patch` output into paths and patch. A record is `added TAB deleted TAB
 * path NUL`, or for a rename `added TAB deleted TAB NUL from NUL to NUL`; NUL NUL (the
 * empty record) separates the list from the patch. No changes: no output at all.
 */
function splitNumstatPatch(out: Buffer): { files: string[]; patch: Uint8Array } {
  const end = out.indexOf(NUL_NUL);
  const list = end === -1 ? out : out.subarray(0, end + 1);
  const patch = end === -1 ? new Uint8Array() : out.subarray(end + 2);
  const fields = list.toString('utf8').split('\0');
  const files: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? '';
    if (field === '') continue;
    const path = field.slice(field.indexOf('\t', field.indexOf('\t') + 1) + 1);
    if (path !== '') files.push(path);
    else {
      // A rename: the next two fields are its old and new names.
      const to = fields[i + 2];
      if (to !== undefined && to !== '') files.push(to);
      i += 2;
    }
  }
  return { files, patch };
}

const NUL_NUL = Buffer.from([0, 0]);

/** The whole tree from the top, minus `exclude` (paths relative to the repository root). */
function pathspecs(exclude: readonly string[]): string[] {
  return [':(top)', ...exclude.map((path) => `:(top,exclude)${path}`)];
}

/**
 * Commits the index as ralph-cloud and returns the new sha. With `shaLength` (the length of
 * the repository's object names: 40, or 64 for SHA-256), the sha is read from the commit's
 * own summary line, `[<branch> <sha>] <subject>`, written unabbreviated; otherwise (or
 * should that line not hold it) a second git process reads HEAD.
 */
export async function commit(
  cwd: string,
  message: string,
  options: { allowEmpty?: boolean; shaLength?: number } = {},
): Promise<string> {
  const { shaLength } = options;
  const out = await git(
    cwd,
    [
      ...IDENTITY,
      ...NO_HOUSEKEEPING,
      ...(shaLength === undefined ? [] : ['-c', `core.abbrev=${shaLength}`]),
      'commit',
      ...(shaLength === undefined ? ['--quiet'] : []),
      '--no-verify',
      ...(options.allowEmpty ? ['--allow-empty'] : []),
      '--file=-',
    ],
    { input: message },
  );
  // Branch names hold no spaces: the sha is the word before the first `] `.
  const sha =
    shaLength === undefined
      ? undefined
      : new RegExp(`^\\[[^\\n]*? ([0-9a-f]{${shaLength}})\\] `).exec(out)?.[1];
  return sha ?? git(cwd, ['rev-parse', 'HEAD']);
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
  const result = await runGit(
    cwd,
    [
      'diff',
      ...PATCH_OPTIONS,
      ...(options.binary ? ['--binary'] : []),
      ...(head === undefined ? ['--cached', base] : [`${base}..${head}`]),
    ],
    {},
  );
  if (result.failure !== undefined)
    throw new GitError(`git diff failed: ${result.failure}`, result.exitCode);
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

/** Creates or moves (`update`) and deletes refs in one git process. */
export async function updateRefs(
  cwd: string,
  changes: { update?: readonly { ref: string; sha: string }[]; delete?: readonly string[] },
): Promise<void> {
  const lines = [
    ...(changes.update ?? []).map(({ ref, sha }) => `update ${ref} ${sha}`),
    ...(changes.delete ?? []).map((ref) => `delete ${ref}`),
  ];
  if (lines.length === 0) return;
  await git(cwd, ['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
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
/** Moves the remote branch to HEAD even when that is not a fast-forward (a reset). */
export async function forcePushHead(cwd: string, branch: string, token?: string): Promise<void> {
  await git(
    cwd,
    ['push', '--quiet', '--no-verify', '--force', 'origin', `HEAD:refs/heads/${branch}`],
    {
      timeoutMs: NETWORK_TIMEOUT_MS,
      ...(token === undefined ? {} : { token }),
    },
  );
}

export async function push(cwd: string, ref: string, token?: string): Promise<void> {
  const target = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  await git(cwd, ['push', '--quiet', '--no-verify', 'origin', `${target}:${target}`], {
    timeoutMs: NETWORK_TIMEOUT_MS,
    ...(token === undefined ? {} : { token }),
  });
}
