/**
 * The cross-loop registry on the single table (docs/data-model.md, "Learning"): one item
 * per pattern under `REGISTRY#<scope>`, created with `attribute_not_exists(pk)` and saved on
 * its `version` as every record; a pattern too large for an item keeps its body in the
 * bucket (pattern-bodies.ts). Archiving writes the pattern to `registry/archive/...` first,
 * write-once and never deleted, then deletes the item on its version.
 */
import { z } from 'zod';
import { NotFoundError, VersionConflictError } from '../../core/errors.js';
import {
  RegistryPatternSchema,
  type RegistryPattern,
  type RegistryScope,
} from '../../core/schemas/learning.js';
import { artefactKeys } from '../../core/shared/artefact-keys.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { ArtefactStore, Clock } from '../../ports.js';
import { TABLE_KEYS } from '../table-design.js';
import { createOrSave, nextVersion } from './conditional-writes.js';
import type { ItemTable } from './item-table.js';
import { checkedId, learningKeys, patternKey, queryPrefix } from './learning-items.js';
import { PatternBodies } from './pattern-bodies.js';

const LABEL = 'registry pattern';

/** What an archived copy holds: the pattern as it was, why it went, and when. */
export const ArchivedPatternSchema = z.strictObject({
  pattern: RegistryPatternSchema,
  reason: z.string().trim().min(1, 'say why the pattern is archived'),
  archivedAt: z.iso.datetime({ offset: true }),
});
export type ArchivedPattern = z.infer<typeof ArchivedPatternSchema>;

export class RegistryPatterns {
  readonly #table: ItemTable;
  readonly #artefacts: ArtefactStore;
  readonly #bodies: PatternBodies;
  readonly #clock: Clock;

  constructor(table: ItemTable, artefacts: ArtefactStore, clock: Clock) {
    this.#table = table;
    this.#artefacts = artefacts;
    this.#bodies = new PatternBodies(artefacts);
    this.#clock = clock;
  }

  /** By pattern id (the sort key's order), every page. */
  async list(scope: RegistryScope): Promise<RegistryPattern[]> {
    const checked = checkedId.scope(scope);
    const items = await queryPrefix(
      this.#table,
      learningKeys.registryPk(checked),
      learningKeys.patternPrefix,
      `the patterns of registry ${checked}`,
    );
    return this.#bodies.patternsOf(items, (item) =>
      describe(checked, String(item[TABLE_KEYS.sortKey]).slice(learningKeys.patternPrefix.length)),
    );
  }

  async get(scope: RegistryScope, patternId: string): Promise<RegistryPattern | undefined> {
    const checked = checkedId.scope(scope);
    const what = describe(checked, checkedId.pattern(patternId));
    const item = await this.#table.get(patternKey(checked, patternId), what);
    return item === undefined ? undefined : this.#bodies.patternOf(item, what);
  }

  /**
   * Validates the pattern at its next version, writes its body first when it is too large
   * for an item, then creates or saves the item (conditional-writes.ts). A body left by a
   * save that then loses its race is never read: no item names it.
   */
  async save(
    pattern: RegistryPattern,
    expectedVersion: number | undefined,
  ): Promise<RegistryPattern> {
    const version = expectedVersion === undefined ? 1 : nextVersion(expectedVersion);
    const next = parseOrThrow(RegistryPatternSchema, { ...pattern, version }, LABEL);
    const item = await this.#bodies.itemOf(next);
    return createOrSave(this.#table, RegistryPatternSchema, next, expectedVersion, {
      label: LABEL,
      item: () => item,
      what: (saved) => describe(saved.scope, saved.patternId),
    });
  }

  /**
   * Refuses a pattern that is gone (NotFoundError) or no longer at `pattern.version`
   * (VersionConflictError) before writing; writes the archived copy, then deletes the item
   * on `version = :read`. A delete refused because the item is gone is done: an earlier
   * attempt of it that the SDK retried, or another archive, took it out.
   */
  async archive(pattern: RegistryPattern, reason: string): Promise<{ key: string }> {
    const archivedAt = this.#clock.now().toISOString();
    const copy = parseOrThrow(
      ArchivedPatternSchema,
      { pattern, reason, archivedAt },
      'archived pattern',
    );
    const { scope, patternId, version } = copy.pattern;
    const what = describe(scope, patternId);
    const read = await this.#table.get(patternKey(scope, patternId), what);
    if (read === undefined) throw new NotFoundError(`${what} does not exist`);
    if (read['version'] !== version)
      throw new VersionConflictError(
        `${what} was not archived: expected version ${version}, but the stored version is ${String(read['version'])}`,
      );

    const key = artefactKeys.registryArchive(scope, patternId, archivedAt);
    await this.#artefacts.put(key, `${JSON.stringify(copy, null, 2)}\n`);
    const removed = await this.#table.deleteIf(
      {
        key: patternKey(scope, patternId),
        condition: '#version = :version',
        names: { '#version': 'version' },
        values: { ':version': version },
      },
      what,
    );
    if (removed.refused) {
      const stored = await this.#table.get(patternKey(scope, patternId), what);
      if (stored !== undefined)
        throw new VersionConflictError(
          `${what} changed while it was being archived: expected version ${version}, but the stored version is ${String(stored['version'])}; its archived copy ${this.#artefacts.locate(key)} stays`,
          { cause: removed.cause },
        );
    }
    return { key };
  }
}

function describe(scope: string, patternId: string): string {
  return `pattern ${patternId} of registry ${scope}`;
}
