/**
 * The investigate example (examples/investigate/) for tests: its directory, its scripted
 * investigating agent, its recorded Sentry issue payload and its app's files.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INVESTIGATE_EXAMPLE = fileURLToPath(
  new URL('../../examples/investigate/', import.meta.url),
);
export const SCRIPTED_INVESTIGATOR = join(INVESTIGATE_EXAMPLE, 'scripted-investigator.mjs');
/** Sentry's documented `issue.created` payload, its fields naming the app made the example's. */
export const EXAMPLE_SENTRY_ISSUE = join(INVESTIGATE_EXAMPLE, 'sentry-issue.created.json');

/** The template's files, as the example copies them (`gitignore` is `.gitignore`). */
export async function exampleTemplateFiles(): Promise<Record<string, string>> {
  const root = join(INVESTIGATE_EXAMPLE, 'template');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((found) => found.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(root, path);
    files[name === 'gitignore' ? '.gitignore' : name] = await readFile(path, 'utf8');
  }
  return files;
}
