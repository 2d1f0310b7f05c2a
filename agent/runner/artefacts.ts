/**
 * The iteration's artefacts under `runs/{runId}/iterations/{n}/`, and how result.json lists
 * them: each write returns the entry it adds to `artefacts` (`prompt.md` → `prompt`).
 */
import { artefactKeys, type IterationArtefact } from '../../lambdas/core/shared/artefact-keys.js';
import type { Iteration } from './iteration.js';

/** result.json's `artefacts`: field name to key. */
export type Written = Readonly<Record<string, string>>;

export function artefactKey(it: Iteration, name: IterationArtefact): string {
  return artefactKeys.iteration(it.run.runId, it.record.iteration, name);
}

/** The entry result.json lists a written artefact under. */
export function writtenEntry(name: IterationArtefact, key: string): Written {
  return { [name.replace(/\..*$/, '')]: key };
}

/** Writes an artefact; a failed write rejects. */
export async function putArtefact(
  it: Iteration,
  name: IterationArtefact,
  body: string | Uint8Array,
): Promise<Written> {
  const key = artefactKey(it, name);
  await it.deps.artefacts.put(key, asBytes(body));
  return writtenEntry(name, key);
}

/** Writes an artefact; a failed write is logged and lists nothing. Never rejects. */
export async function putArtefactBestEffort(
  it: Iteration,
  name: IterationArtefact,
  body: string | Uint8Array,
): Promise<Written> {
  try {
    return await putArtefact(it, name, body);
  } catch (error) {
    it.log('artefact-write-failed', { artefact: name, error: (error as Error).message });
    return {};
  }
}

/**
 * A body the S3 client can measure. It sends no Content-Length for an empty string (a
 * falsy body), and then warns of "a Stream of unknown length": an empty diff.patch or
 * transcript.jsonl is a zero-length Buffer instead.
 */
export function asBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}
