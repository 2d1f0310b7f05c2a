/** Files written whole (beside the target, then renamed over it): a reader never sees half of one. */
import { link, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Written beside the target, then renamed over it; `mode` from the start (a key: 0600). */
export async function writeWhole(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; exclusive?: boolean; makeParents?: boolean } = {},
): Promise<void> {
  if (options.makeParents ?? true) await mkdir(dirname(path), { recursive: true });
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
