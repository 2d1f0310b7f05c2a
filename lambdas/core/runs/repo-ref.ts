import { InvalidInputError } from '../errors.js';
import type { RepoRef } from '../schemas/run.js';

/** `https://…`, `ssh://…`, `git://…`: URLs a container can clone. */
const REMOTE_URL = /^(https|ssh|git):\/\/[^\s/]+\/\S+$/;
/** scp-like `user@host:path` (GitHub's `git@github.com:org/repo.git`). */
const SCP_LIKE = /^[\w.-]+@[\w.-]+:[^\s/][^\s]*$/;
/** Only a server on this machine can reach these: `http://…` (a local git server), `file://…`. */
const LOCAL_URL = /^(http|file):\/\/\S+$/;

/**
 * Where a run's code is, from the `repo` a caller gave. A cloud deployment clones what it is
 * given into a container, so it takes only remote git URLs; a local server (`allowLocal`)
 * also works in a local path or a URL only this machine can reach.
 *
 * @example
 * repoRefOf('git@github.com:acme/app.git', { allowLocal: false }) // { kind: 'git', url: … }
 * repoRefOf('/home/me/app', { allowLocal: true })                  // { kind: 'local', path: … }
 */
export function repoRefOf(repo: string, options: { allowLocal: boolean }): RepoRef {
  if (REMOTE_URL.test(repo) || SCP_LIKE.test(repo)) return { kind: 'git', url: repo };
  if (options.allowLocal) {
    if (LOCAL_URL.test(repo)) return { kind: 'git', url: repo };
    if (repo.startsWith('/')) return { kind: 'local', path: repo };
    throw new InvalidInputError('request body', [
      `repo: "${repo}" is neither a git URL nor an absolute path`,
    ]);
  }
  throw new InvalidInputError('request body', [
    `repo: "${repo}" is not a git URL this deployment can clone (https://, ssh:// or user@host:path); a local repository must be pushed first and its git URL passed`,
  ]);
}
