/**
 * File-system probes that answer "absent" instead of throwing, and the runner's own writes
 * in the working copy. None of them follows a symbolic link at the path itself: in the
 * container the runner is root, and a prd.json or progress.txt the agent replaced with a
 * link to `/proc/self/environ` or to a file of the runner's must not be read or written
 * through (runner-files.ts checks the directories above them).
 */
import { constants } from 'node:fs';
import { access, lstat, open, unlink } from 'node:fs/promises';

/** The file's text; undefined when it cannot be read (absent, a directory, or a link). */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Writes (creates or truncates) a file. A symbolic link at the path is replaced by the file,
 * never written through; the runner writes only while no process of the agent's runs, so
 * nothing can put the link back in between.
 */
export async function writeNoFollow(path: string, content: string | Uint8Array): Promise<void> {
  if ((await lstat(path).catch(() => undefined))?.isSymbolicLink()) await unlink(path);
  const handle = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** Copies a file's bytes without following a link at either end. */
export async function copyNoFollow(from: string, to: string): Promise<void> {
  const handle = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    await writeNoFollow(to, await handle.readFile());
  } finally {
    await handle.close();
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

/** Whether something (a link included, whatever it points at) is at `path`. */
export async function occupied(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
