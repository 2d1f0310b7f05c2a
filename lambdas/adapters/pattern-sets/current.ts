/**
 * Reading the current pattern set: the pointer's version when its body is usable, else
 * the nearest usable earlier version (chooseFallback's order), reported as a fallback.
 * A read never writes: moving the pointer off a corrupt version is `rollback`'s job.
 */
import { PatternSetCorruptError } from '../../core/patterns/errors.js';
import type { CurrentPatternSet } from '../../ports.js';
import { chooseFallback } from '../../core/patterns/pattern-set-versions.js';
import type { PatternSetPointers } from './pointer.js';
import type { PatternSetVersions } from './versions.js';

/**
 * The current set of a project, `undefined` when it has none; PatternSetCorruptError when
 * neither the pointer's version nor any earlier one is usable.
 *
 * @example
 * const current = await readCurrent({ versions, pointers }, 'acme');
 * if (current?.fallbackFrom !== undefined) logger.warn(current.fallbackReason);
 */
export async function readCurrent(
  store: { versions: PatternSetVersions; pointers: PatternSetPointers },
  projectId: string,
): Promise<CurrentPatternSet | undefined> {
  const { versions, pointers } = store;
  const pointer = await pointers.read(projectId);
  if (pointer === undefined) return undefined;
  const { check } = await versions.inspect(projectId, pointer.version);
  if (check.valid) return { version: pointer.version, set: check.set, pointer };

  const candidates = await versions.list(projectId, 'skip-corrupt');
  const { chosen, skipped } = await chooseFallback(candidates, pointer.version, (metadata) =>
    versions.checkBody(metadata),
  );
  const refused = [{ version: pointer.version, reason: check.reason }, ...skipped];
  if (chosen === undefined)
    throw new PatternSetCorruptError(
      projectId,
      refused.map(({ version, reason }) => `v${version}: ${reason}`),
    );
  return {
    version: chosen.metadata.version,
    set: chosen.set,
    pointer,
    fallbackFrom: pointer.version,
    fallbackReason: check.reason,
    skipped: refused,
  };
}
