/**
 * PatternSetStore over the single table and the artefact bucket (docs/data-model.md,
 * "Pattern sets"). A version is a write-once S3 body (`projects/{id}/patterns/v{n}.json`)
 * described by a write-once item; a pointer item names the current version and moves by
 * a conditional put on the version (and pointer version) the caller read. Three writes,
 * no transaction (dynalite has none), ordered so that a crash between any two leaves
 * nothing pointed at that is not fully written and valid:
 *
 * 1. the body, write-once (a number whose body exists is taken: the next one is tried);
 * 2. the version item, `attribute_not_exists` (the version now exists, listed);
 * 3. the pointer, conditional (the version is now current).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { artefactKeys } from '../core/shared/artefact-keys.js';
import {
  ArtefactExistsError,
  InvalidInputError,
  NotFoundError,
  VersionConflictError,
} from '../core/errors.js';
import { PatternSetCorruptError } from '../core/patterns/errors.js';
import type { CurrentPatternSet, PatternSetStore } from '../core/steps/pattern-set-port.js';
import {
  checkPatternSetBody,
  chooseFallback,
  parsePatternSetDraft,
  stampPatternSet,
  versionMetadata,
  type BodyCheck,
} from '../core/patterns/pattern-set-versions.js';
import {
  PatternSetPointerSchema,
  PatternSetVersionSchema,
  PublishOptionsSchema,
  RollbackOptionsSchema,
  type PatternSetDraft,
  type PatternSetPointer,
  type PatternSetVersion,
  type PublishOptions,
  type RollbackOptions,
} from '../core/schemas/pattern-sets.js';
import type { PatternSet } from '../core/schemas/evaluation.js';
import { formatZodIssues, parseOrThrow } from '../core/shared/validation.js';
import type { ArtefactStore, Clock } from '../ports.js';
import { systemClock } from './clock.js';
import {
  conditionalPut,
  parseStoredItem,
  recordOf,
  toDynamoStoreError,
  type Item,
} from './dynamo-items.js';
import { TABLE_KEYS } from './table-design.js';

const { partitionKey: PK, sortKey: SK } = TABLE_KEYS;

/** Version numbers are padded to this width so that sort keys sort numerically. */
const VERSION_DIGITS = 6;
const MAX_VERSION = 10 ** VERSION_DIGITS - 1;
/**
 * Numbers tried when bodies already exist at the next ones (publishes that crashed after
 * their body, or that race this one); beyond that the call gives up with a conflict.
 */
const MAX_VERSION_CLAIMS = 5;

/** The version item: the version's record and where its body is. */
const VersionItemSchema = PatternSetVersionSchema.extend({ s3Key: z.string().min(1) });
type VersionItem = z.infer<typeof VersionItemSchema>;

/**
 * The key builders, exported so that docs/data-model.md, the tests and any repair script
 * name items exactly as the store does.
 */
export const patternSetKeys = {
  projectPk: (projectId: string) => `PROJECT#${projectId}`,
  pointerSk: 'PATTERNS#CURRENT',
  versionPrefix: 'PATTERNS#V#',
  /** `PATTERNS#V#000002` sorts before `PATTERNS#V#000010`. */
  versionSk: (version: number) => {
    checkVersionNumber(version, 'version');
    return `PATTERNS#V#${String(version).padStart(VERSION_DIGITS, '0')}`;
  },
} as const;

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
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #artefacts: ArtefactStore;
  readonly #clock: Clock;

  constructor({ client, tableName, artefacts, clock }: DynamoS3PatternSetStoreOptions) {
    this.#client =
      client instanceof DynamoDBDocumentClient
        ? client
        : DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    this.#tableName = tableName;
    this.#artefacts = artefacts;
    this.#clock = clock ?? systemClock;
  }

  async current(projectId: string): Promise<CurrentPatternSet | undefined> {
    checkProjectId(projectId);
    const pointer = await this.#readPointer(projectId);
    if (pointer === undefined) return undefined;
    const { check } = await this.#inspect(projectId, pointer.version);
    if (check.valid) return { version: pointer.version, set: check.set, pointer };

    const versions = await this.#versionItems(projectId, 'skip-corrupt');
    const { chosen, skipped } = await chooseFallback(versions, pointer.version, (metadata) =>
      this.#checkBody(metadata),
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

  async get(projectId: string, version: number): Promise<PatternSet | undefined> {
    checkProjectId(projectId);
    checkVersionNumber(version, 'version');
    const { metadata, check } = await this.#inspect(projectId, version);
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
    const items = await this.#versionItems(projectId, 'throw', newerThan);
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
    const pointer = await this.#readPointer(projectId);
    checkExpected(projectId, pointer, expectedCurrent, 'published');

    const createdAt = this.#clock.now().toISOString();
    const parentVersion = expectedCurrent ?? undefined;
    let version = (await this.#newestVersion(projectId)) + 1;
    let set: PatternSet;
    for (let claim = 1; ; claim += 1) {
      patternSetKeys.versionSk(version); // refuses a number the sort key cannot hold, before the body
      set = stampPatternSet(content, { version, parentVersion, createdAt, reason });
      try {
        await this.#artefacts.put(
          artefactKeys.patternSet(projectId, version),
          `${JSON.stringify(set, null, 2)}\n`,
        );
        break;
      } catch (error) {
        if (!(error instanceof ArtefactExistsError)) throw error;
        if (claim >= MAX_VERSION_CLAIMS)
          throw new VersionConflictError(
            `pattern set of project ${projectId} was not published: bodies exist for versions ${version - claim + 1}..${version} without being published`,
            { cause: error },
          );
        version += 1;
      }
    }

    const item: Item = {
      ...versionMetadata(set, { runId, iteration }),
      s3Key: artefactKeys.patternSet(projectId, version),
      [PK]: patternSetKeys.projectPk(projectId),
      [SK]: patternSetKeys.versionSk(version),
    };
    const what = `version ${version} of the pattern set of project ${projectId}`;
    const created = await conditionalPut(this.#client, {
      tableName: this.#tableName,
      item,
      condition: 'attribute_not_exists(#pk)',
      names: { '#pk': PK },
      what,
    });
    if (!created.written)
      throw new VersionConflictError(`${what} was not published: another publish claimed it`, {
        cause: created.cause,
      });

    await this.#movePointer(projectId, pointer, {
      version,
      change: 'publish',
      reason,
      updatedAt: createdAt,
      lost: `version ${version} stays stored but is not current (an orphan)`,
    });
    return version;
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
    const pointer = await this.#readPointer(projectId);
    if (pointer === undefined)
      throw new NotFoundError(`project ${projectId} has no pattern set to roll back`);
    checkExpected(projectId, pointer, expectedCurrent, 'rolled back');
    if (toVersion === pointer.version)
      throw new InvalidInputError('rollback', [
        `toVersion: version ${toVersion} is already current`,
      ]);

    // Never point at what a reader would refuse: the target is checked again now.
    const { metadata, check } = await this.#inspect(projectId, toVersion);
    if (metadata === undefined)
      throw new NotFoundError(
        `version ${toVersion} of the pattern set of project ${projectId} does not exist`,
      );
    if (!check.valid)
      throw new PatternSetCorruptError(projectId, [`v${toVersion}: ${check.reason}`]);

    return this.#movePointer(projectId, pointer, {
      version: toVersion,
      change: 'rollback',
      reason,
      updatedAt: this.#clock.now().toISOString(),
      lost: 'the pointer was not moved',
    });
  }

  /**
   * Writes the next pointer, conditional on the pointer read (its version and pointer
   * version: a rollback and a publish in between would otherwise restore the same
   * version unnoticed), or on there being none.
   */
  async #movePointer(
    projectId: string,
    read: PatternSetPointer | undefined,
    next: Omit<PatternSetPointer, 'pointerVersion'> & { lost: string },
  ): Promise<PatternSetPointer> {
    const { lost, ...fields } = next;
    const pointer = PatternSetPointerSchema.parse({
      ...fields,
      pointerVersion: (read?.pointerVersion ?? 0) + 1,
    });
    const what = `pattern-set pointer of project ${projectId}`;
    const result = await conditionalPut(this.#client, {
      tableName: this.#tableName,
      item: {
        ...pointer,
        [PK]: patternSetKeys.projectPk(projectId),
        [SK]: patternSetKeys.pointerSk,
      },
      ...(read === undefined
        ? { condition: 'attribute_not_exists(#pk)', names: { '#pk': PK } }
        : {
            condition: '#version = :version AND #pointerVersion = :pointerVersion',
            names: { '#version': 'version', '#pointerVersion': 'pointerVersion' },
            values: { ':version': read.version, ':pointerVersion': read.pointerVersion },
          }),
      what,
    });
    if (result.written) return pointer;
    const stored =
      'stored' in result && result.stored !== undefined
        ? PatternSetPointerSchema.safeParse(recordOf(result.stored))
        : undefined;
    const now = stored?.success ? describePointer(stored.data) : 'it could not be read';
    throw new VersionConflictError(
      `${what} moved while the pattern set was being ${next.change === 'publish' ? 'published' : 'rolled back'}: expected ${describePointer(read)}, but now ${now}; ${lost}`,
      { cause: result.cause },
    );
  }

  /** A version's item and whether its body is usable; a corrupt item is unusable too. */
  async #inspect(
    projectId: string,
    version: number,
  ): Promise<{ metadata: VersionItem | undefined; check: BodyCheck }> {
    const what = `version ${version} of the pattern set of project ${projectId}`;
    const item = await this.#getItem(projectId, patternSetKeys.versionSk(version), what);
    if (item === undefined)
      return { metadata: undefined, check: { valid: false, reason: 'version item is missing' } };
    const parsed = VersionItemSchema.safeParse(recordOf(item));
    if (!parsed.success)
      return {
        metadata: undefined,
        check: {
          valid: false,
          reason: `version item does not match its schema: ${formatZodIssues(parsed.error).join('; ')}`,
        },
      };
    return { metadata: parsed.data, check: await this.#checkBody(parsed.data) };
  }

  /**
   * Reads and checks a version's body. A missing body is a finding; a failed read is not
   * (a TransientError is thrown rather than an older set served because S3 hiccupped).
   */
  async #checkBody(metadata: VersionItem): Promise<BodyCheck> {
    let text: string | undefined;
    try {
      text = await this.#artefacts.getText(metadata.s3Key);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    return checkPatternSetBody(text, metadata);
  }

  async #readPointer(projectId: string): Promise<PatternSetPointer | undefined> {
    const what = `pattern-set pointer of project ${projectId}`;
    const item = await this.#getItem(projectId, patternSetKeys.pointerSk, what);
    return item === undefined ? undefined : parseStoredItem(PatternSetPointerSchema, item, what);
  }

  async #getItem(projectId: string, sortKey: string, what: string): Promise<Item | undefined> {
    try {
      const result = await this.#client.send(
        new GetCommand({
          TableName: this.#tableName,
          Key: { [PK]: patternSetKeys.projectPk(projectId), [SK]: sortKey },
          ConsistentRead: true,
        }),
      );
      return result.Item;
    } catch (error) {
      throw toDynamoStoreError(error, 'GetItem', what);
    }
  }

  /** The highest version number taken in the table (0 for none), orphans included. */
  async #newestVersion(projectId: string): Promise<number> {
    const [newest] = await this.#queryVersions(projectId, 1);
    if (newest === undefined) return 0;
    return Number(String(newest[SK]).slice(patternSetKeys.versionPrefix.length));
  }

  /**
   * Every version item, newest first. `skip-corrupt` leaves out items that do not parse
   * (fallback must still find the good ones); `throw` reports them (CORRUPT_RECORD).
   */
  async #versionItems(
    projectId: string,
    corrupt: 'skip-corrupt' | 'throw',
    newerThan?: number,
  ): Promise<VersionItem[]> {
    const items = await this.#queryVersions(projectId, undefined, newerThan);
    const what = `pattern-set version of project ${projectId}`;
    if (corrupt === 'throw')
      return items.map((item) => parseStoredItem(VersionItemSchema, item, what));
    return items.flatMap((item) => {
      const parsed = VersionItemSchema.safeParse(recordOf(item));
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Version items newest first: all of them, the newest `limit`, or those above `newerThan`. */
  async #queryVersions(projectId: string, limit?: number, newerThan?: number): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    // One condition on the sort key: the prefix, or the range of version keys above one.
    const range =
      newerThan === undefined
        ? {
            condition: 'begins_with(#sk, :prefix)',
            values: { ':prefix': patternSetKeys.versionPrefix },
          }
        : {
            condition: '#sk BETWEEN :from AND :to',
            values: {
              ':from': patternSetKeys.versionSk(newerThan + 1),
              ':to': patternSetKeys.versionSk(MAX_VERSION),
            },
          };
    do {
      let page;
      try {
        page = await this.#client.send(
          new QueryCommand({
            TableName: this.#tableName,
            KeyConditionExpression: `#pk = :pk AND ${range.condition}`,
            ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
            ExpressionAttributeValues: {
              ':pk': patternSetKeys.projectPk(projectId),
              ...range.values,
            },
            ScanIndexForward: false,
            ConsistentRead: true,
            ...(limit === undefined ? {} : { Limit: limit - items.length }),
            ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
          }),
        );
      } catch (error) {
        throw toDynamoStoreError(error, 'Query', `pattern-set versions of project ${projectId}`);
      }
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined && (limit === undefined || items.length < limit));
    return items;
  }
}

function checkExpected(
  projectId: string,
  pointer: PatternSetPointer | undefined,
  expected: number | null,
  action: string,
): void {
  const current = pointer?.version ?? null;
  if (current !== expected)
    throw new VersionConflictError(
      `pattern set of project ${projectId} was not ${action}: expected current version ${expected ?? 'none'}, but the current version is ${current ?? 'none'}`,
    );
}

function describePointer(pointer: PatternSetPointer | undefined): string {
  return pointer === undefined
    ? 'no pointer'
    : `version ${pointer.version} (pointer version ${pointer.pointerVersion})`;
}

/** The table key and the S3 key both carry the project id; artefactKeys refuses an unsafe one. */
function checkProjectId(projectId: string): void {
  artefactKeys.patternSet(projectId, 1);
}

function checkVersionNumber(version: number, what: string): void {
  if (!Number.isSafeInteger(version) || version < 1 || version > MAX_VERSION)
    throw new InvalidInputError('pattern-set version', [
      `${what}: ${version} is outside 1..${MAX_VERSION} (the sort key holds ${VERSION_DIGITS} digits)`,
    ]);
}
