/** Writing the files a command creates: never half a file, never over one by accident. */
import { writeWhole } from '../../lambdas/adapters/whole-file.js';
import { CliError } from './errors.js';
import { EXIT } from './exit-codes.js';

// Whether a file or a directory is there: the runner's own probe, not a second one.
export { exists } from '../../agent/working-copy/optional-files.js';

/** Written whole (writeWhole): a reader never sees half a file; a failure is the CLI's error. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  try {
    // A folder that is not there is the person's mistake to hear of, not one to make.
    await writeWhole(path, text, { makeParents: false });
  } catch (error) {
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`, EXIT.invalidInput);
  }
}
