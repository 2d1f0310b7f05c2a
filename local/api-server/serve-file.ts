/**
 * `.ralph/serve.json`: where `ralph serve` listens and the credential it accepts, for the
 * CLI (and for a person's `curl --aws-sigv4`). Written readable by its owner only; removed
 * when the server stops.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeWhole } from '../../lambdas/adapters/whole-file.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';

export const SERVE_FILE = 'serve.json';

export const ServeFileSchema = z.strictObject({
  endpoint: z.url(),
  region: z.string().min(1),
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
});
export type ServeFile = z.infer<typeof ServeFileSchema>;

export async function writeServeFile(dataDir: string, serve: ServeFile): Promise<string> {
  const path = join(dataDir, SERVE_FILE);
  // Written whole: a CLI polling for the file never reads half of it.
  await writeWhole(path, `${JSON.stringify(serve, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/** The file's content, or undefined when no server wrote one. */
export async function readServeFile(dataDir: string): Promise<ServeFile | undefined> {
  const path = join(dataDir, SERVE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseOrThrow(ServeFileSchema, parseJsonText(text, path), path);
}

export async function removeServeFile(dataDir: string): Promise<void> {
  await rm(join(dataDir, SERVE_FILE), { force: true });
}
