/**
 * The versions of a project's pattern set: each a write-once S3 body
 * (`projects/{id}/patterns/v{n}.json`) described by a write-once item that says where the
 * body is and what it must hold (docs/data-model.md, "Pattern sets").
 */
import { z } from 'zod';
import { artefactKeys } from '../../core/shared/artefact-keys.js';
import { ArtefactExistsError, NotFoundError, VersionConflictError } from '../../core/errors.js';
import {
  checkPatternSetBody,
  stampPatternSet,
  versionMetadata,
  type BodyCheck,
  type VersionStamp,
} from '../../core/patterns/pattern-set-versions.js';
import {
  PatternSetVersionSchema,
  type PatternSetContent,
  type PublishedBy,
} from '../../core/schemas/pattern-sets.js';
import type { PatternSet } from '../../core/schemas/evaluation.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import type { ArtefactStore } from '../../ports.js';
import { createItem } from '../dynamodb/conditional-writes.js';
import type { ItemTable } from '../dynamodb/item-table.js';
import { parseStoredItem, recordOf, type Item } from '../dynamodb/stored-items.js';
import { TABLE_KEYS } from '../table-design.js';
import { describeVersion, MAX_VERSION, patternSetKeys, projectKey } from './pattern-set-keys.js';

const { partitionKey: PK, sortKey: SK } = TABLE_KEYS;

/**
 * Numbers tried when bodies already exist at the next ones (publishes that crashed after
 * their body, or that race this one); beyond that the call gives up with a conflict.
 */
const MAX_VERSION_CLAIMS = 5;

/** The version item: the version's record and where its body is. */
const VersionItemSchema = PatternSetVersionSchema.extend({ s3Key: z.string().min(1) });
export type VersionItem = z.infer<typeof VersionItemSchema>;

/** A version as read: its item (when there is a readable one) and whether its body is usable. */
export interface InspectedVersion {
  metadata: VersionItem | undefined;
  check: BodyCheck;
}

export class PatternSetVersions {
  readonly #table: ItemTable;
  readonly #artefacts: ArtefactStore;

  constructor(table: ItemTable, artefacts: ArtefactStore) {
    this.#table = table;
    this.#artefacts = artefacts;
  }

  /** A version's item and whether its body is usable; a corrupt item is unusable too. */
  async inspect(projectId: string, version: number): Promise<InspectedVersion> {
    const item = await this.#table.get(
      projectKey(projectId, patternSetKeys.versionSk(version)),
      describeVersion(projectId, version),
    );
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
    return { metadata: parsed.data, check: await this.checkBody(parsed.data) };
  }

  /**
   * Reads and checks a version's body. A missing body is a finding; a failed read is not
   * (a TransientError is thrown rather than an older set served because S3 hiccupped).
   */
  async checkBody(metadata: VersionItem): Promise<BodyCheck> {
    let text: string | undefined;
    try {
      text = await this.#artefacts.getText(metadata.s3Key);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    return checkPatternSetBody(text, metadata);
  }

  /**
   * Every version item newest first, or those above `newerThan`. `skip-corrupt` leaves out
   * items that do not parse (fallback must still find the good ones); `throw` reports them
   * (CORRUPT_RECORD).
   */
  async list(
    projectId: string,
    corrupt: 'skip-corrupt' | 'throw',
    newerThan?: number,
  ): Promise<VersionItem[]> {
    const items = await this.#query(projectId, undefined, newerThan);
    const what = `pattern-set version of project ${projectId}`;
    if (corrupt === 'throw')
      return items.map((item) => parseStoredItem(VersionItemSchema, item, what));
    return items.flatMap((item) => {
      const parsed = VersionItemSchema.safeParse(recordOf(item));
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The highest version number taken in the table (0 for none), orphans included. */
  async newest(projectId: string): Promise<number> {
    const [newest] = await this.#query(projectId, 1);
    if (newest === undefined) return 0;
    return Number(String(newest[SK]).slice(patternSetKeys.versionPrefix.length));
  }

  /**
   * Writes the body of the next version, write-once, from `firstVersion` on: a number
   * whose body exists is taken (a publish that crashed after its body, or one racing this
   * one), so the next is tried, a bounded number of times.
   */
  async writeBody(
    projectId: string,
    content: PatternSetContent,
    firstVersion: number,
    stamp: Omit<VersionStamp, 'version'>,
  ): Promise<PatternSet> {
    for (let version = firstVersion, claim = 1; ; version += 1, claim += 1) {
      patternSetKeys.versionSk(version); // refuses a number the sort key cannot hold, before the body
      const set = stampPatternSet(content, { version, ...stamp });
      try {
        await this.#artefacts.put(
          artefactKeys.patternSet(projectId, version),
          `${JSON.stringify(set, null, 2)}\n`,
        );
        return set;
      } catch (error) {
        if (!(error instanceof ArtefactExistsError)) throw error;
        if (claim >= MAX_VERSION_CLAIMS)
          throw new VersionConflictError(
            `pattern set of project ${projectId} was not published: bodies exist for versions ${firstVersion}..${version} without being published`,
            { cause: error },
          );
      }
    }
  }

  /** Writes the item of a version whose body is written; the version is then listed. */
  async record(projectId: string, set: PatternSet, createdBy: PublishedBy): Promise<void> {
    const what = describeVersion(projectId, set.version);
    await createItem(
      this.#table,
      {
        ...versionMetadata(set, createdBy),
        s3Key: artefactKeys.patternSet(projectId, set.version),
        ...projectKey(projectId, patternSetKeys.versionSk(set.version)),
      },
      what,
      (cause) =>
        new VersionConflictError(`${what} was not published: another publish claimed it`, {
          cause,
        }),
    );
  }

  /** Version items newest first: all of them, the newest `limit`, or those above `newerThan`. */
  async #query(projectId: string, limit?: number, newerThan?: number): Promise<Item[]> {
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
    return this.#table.query(
      {
        keyCondition: `#pk = :pk AND ${range.condition}`,
        names: { '#pk': PK, '#sk': SK },
        values: { ':pk': patternSetKeys.projectPk(projectId), ...range.values },
        descending: true,
        limit,
      },
      `pattern-set versions of project ${projectId}`,
    );
  }
}
