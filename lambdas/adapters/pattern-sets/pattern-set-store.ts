/**
 * PatternSetStore over the single table and the artefact bucket (docs/data-model.md,
 * "Pattern sets"). A version is a write-once S3 body described by a write-once item
 * (versions.ts); a pointer item names the current version and moves by a conditional put
 * on the version (and pointer version) the caller read (pointer.ts). Three writes, no
 * transaction (dynalite has none), ordered so that a crash between any two leaves nothing
 * pointed at that is not fully written and valid:
 *
 * 1. the body, write-once (a number whose body exists is taken: the next one is tried);
 * 2. the version item, `attribute_not_exists` (the version now exists, listed);
 * 3. the pointer, conditional (the version is now current).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidInputError, NotFoundError } from '../../core/errors.js';
import { PatternSetCorruptError } from '../../core/patterns/errors.js';
import type { CurrentPatternSet, PatternSetStore } from '../../ports.js';
import { parsePatternSetDraft } from '../../core/patterns/pattern-set-versions.js';
import {
  PatternSetVersionSchema,
  PublishOptionsSchema,
  RollbackOptionsSchema,
  type PatternSetDraft,
  type PatternSetPointer,
  type PatternSetVersion,
  type PublishOptions,
  type RollbackOptions,
} from '../../core/schemas/pattern-sets.js';
import type { PatternSet } from '../../core/schemas/evaluation.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { ArtefactStore, Clock } from '../../ports.js';
import { systemClock } from '../clock.js';
import { ItemTable } from '../dynamodb/item-table.js';
import { readCurrent } from './current.js';
import {
  checkProjectId,
  checkVersionNumber,
  describeVersion,
  MAX_VERSION,
} from './pattern-set-keys.js';
import { checkExpected, PatternSetPointers } from './pointer.js';
import { PatternSetVersions } from './versions.js';

export interface DynamoS3PatternSetStoreOptions {
  /** A document client, or a plain client that the store wraps in one. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** Where version bodies are written once (the S3ArtefactStore). */
  artefacts: ArtefactStore;
  /** Stamps `createdAt` and `updatedAt`. @default systemClock */
  clock?: Clock;
}

/**
 * @example
 * const patternSets = new DynamoS3PatternSetStore({ client, tableName, artefacts });
 * const current = await patternSets.current('acme');
 * const version = await patternSets.publish('acme', { ...current.set, patterns }, {
 *   expectedCurrent: current.pointer.version, reason: 'validated p_014', runId, iteration,
 * });
 */
export class DynamoS3PatternSetStore implements PatternSetStore {
  readonly #versions: PatternSetVersions;
  readonly #pointers: PatternSetPointers;
  readonly #clock: Clock;

  constructor({ client, tableName, artefacts, clock }: DynamoS3PatternSetStoreOptions) {
    const table = new ItemTable(client, tableName);
    this.#versions = new PatternSetVersions(table, artefacts);
    this.#pointers = new PatternSetPointers(table);
    this.#clock = clock ?? systemClock;
  }

  async current(projectId: string): Promise<CurrentPatternSet | undefined> {
    checkProjectId(projectId);
    return readCurrent({ versions: this.#versions, pointers: this.#pointers }, projectId);
  }

  async get(projectId: string, version: number): Promise<PatternSet | undefined> {
    checkProjectId(projectId);
    checkVersionNumber(version, 'version');
    const { metadata, check } = await this.#versions.inspect(projectId, version);
    if (metadata === undefined) return undefined;
    if (!check.valid) throw new PatternSetCorruptError(projectId, [`v${version}: ${check.reason}`]);
    return check.set;
  }

  async listVersions(
    projectId: string,
    { newerThan }: { newerThan?: number } = {},
  ): Promise<PatternSetVersion[]> {
    checkProjectId(projectId);
    if (newerThan !== undefined) {
      if (newerThan !== 0) checkVersionNumber(newerThan, 'newerThan');
      if (newerThan >= MAX_VERSION) return [];
    }
    const items = await this.#versions.list(projectId, 'throw', newerThan);
    return items.map((item) => PatternSetVersionSchema.parse(item));
  }

  async publish(
    projectId: string,
    draft: PatternSetDraft,
    options: PublishOptions,
  ): Promise<number> {
    checkProjectId(projectId);
    const { expectedCurrent, reason, runId, iteration } = parseOrThrow(
      PublishOptionsSchema,
      options,
      'publish options',
    );
    const content = parsePatternSetDraft(draft);

    // Checked before anything is written, so a stale caller leaves no orphan behind.
    const pointer = await this.#pointers.read(projectId);
    checkExpected(projectId, pointer, expectedCurrent, 'published');

    const createdAt = this.#clock.now().toISOString();
    const set = await this.#versions.writeBody(
      projectId,
      content,
      (await this.#versions.newest(projectId)) + 1,
      { parentVersion: expectedCurrent ?? undefined, createdAt, reason },
    );
    await this.#versions.record(projectId, set, { runId, iteration });
    await this.#pointers.move(projectId, pointer, {
      version: set.version,
      change: 'publish',
      reason,
      updatedAt: createdAt,
      lost: `version ${set.version} stays stored but is not current (an orphan)`,
    });
    return set.version;
  }

  async rollback(
    projectId: string,
    toVersion: number,
    options: RollbackOptions,
  ): Promise<PatternSetPointer> {
    checkProjectId(projectId);
    checkVersionNumber(toVersion, 'toVersion');
    const { expectedCurrent, reason } = parseOrThrow(
      RollbackOptionsSchema,
      options,
      'rollback options',
    );
    const pointer = await this.#pointers.read(projectId);
    if (pointer === undefined)
      throw new NotFoundError(`project ${projectId} has no pattern set to roll back`);
    checkExpected(projectId, pointer, expectedCurrent, 'rolled back');
    if (toVersion === pointer.version)
      throw new InvalidInputError('rollback', [
        `toVersion: version ${toVersion} is already current`,
      ]);

    // Never point at what a reader would refuse: the target is checked again now.
    const { metadata, check } = await this.#versions.inspect(projectId, toVersion);
    if (metadata === undefined)
      throw new NotFoundError(`${describeVersion(projectId, toVersion)} does not exist`);
    if (!check.valid)
      throw new PatternSetCorruptError(projectId, [`v${toVersion}: ${check.reason}`]);

    return this.#pointers.move(projectId, pointer, {
      version: toVersion,
      change: 'rollback',
      reason,
      updatedAt: this.#clock.now().toISOString(),
      lost: 'the pointer was not moved',
    });
  }
}
