/** Files of the local sharing state, written whole: a reader never sees half of one. */
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { parseJsonText, parseOrThrow } from '../../core/shared/validation.js';

/** Written beside the target, then renamed over it; `mode` from the start (a key: 0600). */
export async function writeWhole(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; exclusive?: boolean } = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, data, { flag: 'wx', mode: options.mode ?? 0o644 });
    // A link, unlike a rename, never replaces: two first uses cannot both win.
    if (options.exclusive) await link(temporary, path);
    else await rename(temporary, path);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** A JSON file read with its schema; absent, `empty`. */
export async function readJsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: z.output<S>,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw error;
  }
  return parseOrThrow(schema, parseJsonText(text, path), path);
}
