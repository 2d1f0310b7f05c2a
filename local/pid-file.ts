/**
 * A file that says which process holds something (a repository, a run), made with an
 * exclusive create so that two processes cannot both take it. A holder that was killed
 * (`kill -9`, a lost machine) leaves its file behind: a file whose process is gone on this
 * host is stale and may be taken over.
 */
import { hostname } from 'node:os';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export const PidFileSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** What the holder is doing (a run id), for the message that names it. */
  runId: z.string(),
  /** The data dir whose store the run is in, for the commands a message suggests. */
  dataDir: z.string().optional(),
  since: z.string(),
});
export type PidFile = z.infer<typeof PidFileSchema>;

/** A new holder record for this process. */
export function thisProcess(runId: string, dataDir?: string): PidFile {
  return {
    pid: process.pid,
    host: hostname(),
    runId,
    ...(dataDir === undefined ? {} : { dataDir }),
    since: new Date().toISOString(),
  };
}

/** The holder named in the file; undefined when there is none (or it cannot be read). */
export async function readPidFile(path: string): Promise<PidFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = PidFileSchema.safeParse(safeJson(text));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether the holder still runs. A holder on another host cannot be checked from here and
 * counts as alive: taking its lock over could run two loops on one repository.
 */
export function holderAlive(holder: PidFile): boolean {
  return holder.host !== hostname() || processAlive(holder.pid);
}

/** Whether a process with this pid runs on this host (one of another user's included). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the file for `holder`: created when absent, taken over when its holder is gone.
 * Returns the live holder that keeps it instead, if any.
 */
export async function claimPidFile(path: string, holder: PidFile): Promise<PidFile | undefined> {
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await writeFile(path, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = await readPidFile(path);
    if (current && sameHolder(current, holder)) return undefined;
    if (current && holderAlive(current)) return current;
    // Stale (or unreadable): moved aside atomically, so that of two processes taking it
    // over at once only one removes it. The other may have moved the winner's fresh file
    // aside instead: a live holder found aside is put back (it never had to wait).
    const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
    if (
      !(await rename(path, aside).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const moved = await readPidFile(aside);
    if (moved && holderAlive(moved) && !sameHolder(moved, current ?? moved)) {
      await rename(aside, path).catch(() => undefined);
      continue;
    }
    await unlink(aside).catch(() => undefined);
  }
  const current = await readPidFile(path);
  if (current) return current;
  throw new Error(`could not take ${path}: it keeps changing`);
}

/** Removes the file if `holder` still holds it (a process that took it over keeps it). */
export async function releasePidFile(path: string, holder: PidFile): Promise<void> {
  const current = await readPidFile(path);
  if (current && sameHolder(current, holder)) await unlink(path).catch(() => undefined);
}

function sameHolder(a: PidFile, b: PidFile): boolean {
  return a.pid === b.pid && a.host === b.host && a.runId === b.runId;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
