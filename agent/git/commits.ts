/** Commits made as ralph-cloud: the counted one on the branch, and evidence beside it. */
import { git, type Repo } from './command.js';
import { currentHead } from './refs.js';

/** Who commits, without reading the user's config; a signing setup there must not apply. */
const IDENTITY = [
  '-c',
  'user.name=ralph-cloud',
  '-c',
  'user.email=ralph-cloud@users.noreply.local',
  '-c',
  'commit.gpgsign=false',
];
/**
 * The runner's commit does not wait for `git maintenance run --auto` (gc): housekeeping of
 * the working copy is its owner's business, and in the cloud the clone is thrown away.
 */
const NO_HOUSEKEEPING = ['-c', 'maintenance.auto=false', '-c', 'gc.auto=0'];

/**
 * Commits the index as ralph-cloud and returns the new sha. With `shaLength` (the length of
 * the repository's object names: 40, or 64 for SHA-256), the sha is read from the commit's
 * own summary line, `[<branch> <sha>] <subject>`, written unabbreviated; otherwise (or
 * should that line not hold it) a second git process reads HEAD.
 */
export async function commit(
  repo: Repo,
  message: string,
  options: { allowEmpty?: boolean; shaLength?: number } = {},
): Promise<string> {
  const { shaLength } = options;
  const out = await git(
    repo,
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
  return sha ?? git(repo, ['rev-parse', 'HEAD']);
}

/**
 * Commits the index as a child of `parent` (default: HEAD) without moving any branch, and
 * returns its sha: the evidence of a change that is about to be reset.
 */
export async function commitDetached(
  repo: Repo,
  message: string,
  parent?: string,
): Promise<string> {
  const tree = await git(repo, ['write-tree']);
  const head = parent ?? (await currentHead(repo));
  return git(repo, [...IDENTITY, 'commit-tree', tree, ...(head ? ['-p', head] : [])], {
    input: message,
  });
}
