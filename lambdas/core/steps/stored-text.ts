import type { ArtefactStore } from '../../ports.js';
import { NotFoundError } from '../errors.js';

/**
 * A stored artefact's text, or `undefined` when the key was never written (any other
 * failure is thrown).
 *
 * @example
 * const text = await readTextIfPresent(artefacts, artefactKeys.iteration(runId, 3, 'result.json'));
 */
export async function readTextIfPresent(
  artefacts: ArtefactStore,
  key: string,
): Promise<string | undefined> {
  try {
    return await artefacts.getText(key);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
