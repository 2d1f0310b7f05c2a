/** The files of the working copy as git knows them: what a project rule's scope is matched against. */
import { git, type Repo } from './command.js';

/** Tracked paths, relative to the top, `/`-separated. */
export async function trackedFiles(repo: Repo): Promise<string[]> {
  const listed = await git(repo, ['ls-files', '-z']);
  return listed.split('\0').filter((path) => path !== '');
}
