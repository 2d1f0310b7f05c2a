/** Reads what `ralph init`'s gate detection decides from: a repository's top-level manifests. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MANIFEST_NAMES,
  MARKER_NAMES,
  type ManifestName,
  type RepositoryFiles,
} from '../../lambdas/core/ralph/starter/repository-files.js';
import { exists } from './file-writes.js';

export async function readRepositoryFiles(repoPath: string): Promise<RepositoryFiles> {
  const manifests: Partial<Record<ManifestName, string>> = {};
  for (const name of MANIFEST_NAMES) {
    const text = await readFile(join(repoPath, name), 'utf8').catch(() => undefined);
    if (text !== undefined) manifests[name] = text;
  }
  const present = new Set<string>();
  for (const name of MARKER_NAMES) if (await exists(join(repoPath, name))) present.add(name);
  return { manifests, present };
}
