/** File-system probes that answer "absent" instead of throwing. */
import { access, readFile } from 'node:fs/promises';

/** The file's text; undefined when it cannot be read (absent, or a directory). */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether a file or a directory is there. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
