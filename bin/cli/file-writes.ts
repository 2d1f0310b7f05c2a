/** Writing the files a command creates: never half a file, never over one by accident. */
import { rename, unlink, writeFile } from 'node:fs/promises';
import { CliError } from './errors.js';
import { EXIT } from './exit-codes.js';

// Whether a file or a directory is there: the runner's own probe, not a second one.
export { exists } from '../../agent/working-copy/optional-files.js';

/** Write beside the target, then rename: a reader never sees half a file. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`, EXIT.invalidInput);
  }
}
