/**
 * LearningStore over the single table and the artefact bucket (docs/data-model.md,
 * "Learning"): run hints under the run, project rules under the project, the cross-loop
 * registry under each scope (registry-patterns.ts). Every write is one conditional
 * single-item write carrying a write id, so a write the SDK retried after a lost reply is
 * recognised as this call's own (conditional-writes.ts); every record is validated before
 * it is written and parsed when it is read.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { VersionConflictError } from '../../core/errors.js';
import {
  ProjectRuleSchema,
  RunHintSchema,
  type ProjectRule,
  type RegistryPattern,
  type RegistryScope,
  type RunHint,
} from '../../core/schemas/learning.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { LearningStore } from '../../learning-ports.js';
import type { ArtefactStore, Clock } from '../../ports.js';
import { systemClock } from '../clock.js';
import { TABLE_KEYS } from '../table-design.js';
import { conditionalPut, createOrSave } from './conditional-writes.js';
import { ItemTable } from './item-table.js';
import {
  checkedId,
  hintItem,
  learningKeys,
  queryPrefix,
  ruleItem,
  ruleKey,
} from './learning-items.js';
import { RegistryPatterns } from './registry-patterns.js';
import { runStoreKeys } from './run-items.js';
import { dropUndefined, parseStoredItem, recordOf } from './stored-items.js';

export interface DynamoS3LearningStoreOptions {
  /** A document client, or a plain client that the store wraps in one. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** Where large pattern bodies and archived patterns are written once (the S3ArtefactStore). */
  artefacts: ArtefactStore;
  /** Stamps an archived pattern. @default systemClock */
  clock?: Clock;
}

/**
 * @example
 * const learning = new DynamoS3LearningStore({ client, tableName, artefacts, clock });
 * const rule = await learning.getRule('acme', 'r-null-check');
 * if (rule) await learning.saveRule({ ...rule, status: 'deprecated' }, rule.version);
 */
export class DynamoS3LearningStore implements LearningStore {
  readonly #table: ItemTable;
  readonly #registry: RegistryPatterns;

  constructor({ client, tableName, artefacts, clock }: DynamoS3LearningStoreOptions) {
    this.#table = new ItemTable(client, tableName);
    this.#registry = new RegistryPatterns(this.#table, artefacts, clock ?? systemClock);
  }

  /**
   * One PutItem on `attribute_not_exists(pk)`. Refused, the item read back decides: the
   * same hint is a no-op (a retried step keeps its hint once), another one a conflict.
   */
  async putHint(hint: RunHint): Promise<void> {
    const record = parseOrThrow(RunHintSchema, hint, 'run hint');
    const what = `hint ${record.hintId} of run ${record.runId}`;
    const result = await conditionalPut(this.#table, {
      item: hintItem(record),
      condition: 'attribute_not_exists(#pk)',
      names: { '#pk': TABLE_KEYS.partitionKey },
      what,
    });
    if (result.written) return;
    const stored = 'stored' in result ? result.stored : undefined;
    const same =
      stored !== undefined &&
      isDeepStrictEqual(
        dropUndefined(RunHintSchema.safeParse(recordOf(stored)).data),
        dropUndefined(record),
      );
    if (!same)
      throw new VersionConflictError(`${what} already exists with other content`, {
        cause: result.cause,
      });
  }

  /** In iteration order (the sort key holds the hint id, `h10` before `h2`: sorted here). */
  async listHints(runId: string): Promise<RunHint[]> {
    const checked = checkedId.run(runId);
    const items = await queryPrefix(
      this.#table,
      runStoreKeys.runPk(checked),
      learningKeys.hintPrefix,
      `the hints of run ${checked}`,
    );
    return items
      .map((item) => parseStoredItem(RunHintSchema, item, 'run hint'))
      .sort((a, b) => a.iteration - b.iteration || a.hintId.localeCompare(b.hintId));
  }

  /** By rule id (the sort key's order), every page. */
  async listRules(projectId: string): Promise<ProjectRule[]> {
    const checked = checkedId.project(projectId);
    const items = await queryPrefix(
      this.#table,
      learningKeys.projectPk(checked),
      learningKeys.rulePrefix,
      `the rules of project ${checked}`,
    );
    return items.map((item) => parseStoredItem(ProjectRuleSchema, item, 'project rule'));
  }

  async getRule(projectId: string, ruleId: string): Promise<ProjectRule | undefined> {
    const what = describeRule(checkedId.project(projectId), checkedId.rule(ruleId));
    const item = await this.#table.get(ruleKey(projectId, ruleId), what);
    return item === undefined ? undefined : parseStoredItem(ProjectRuleSchema, item, what);
  }

  async saveRule(rule: ProjectRule, expectedVersion: number | undefined): Promise<ProjectRule> {
    return createOrSave(this.#table, ProjectRuleSchema, rule, expectedVersion, {
      label: 'project rule',
      item: ruleItem,
      what: (next) => describeRule(next.projectId, next.ruleId),
    });
  }

  listPatterns(scope: RegistryScope): Promise<RegistryPattern[]> {
    return this.#registry.list(scope);
  }

  getPattern(scope: RegistryScope, patternId: string): Promise<RegistryPattern | undefined> {
    return this.#registry.get(scope, patternId);
  }

  savePattern(
    pattern: RegistryPattern,
    expectedVersion: number | undefined,
  ): Promise<RegistryPattern> {
    return this.#registry.save(pattern, expectedVersion);
  }

  archivePattern(pattern: RegistryPattern, reason: string): Promise<{ key: string }> {
    return this.#registry.archive(pattern, reason);
  }
}

/**
 * The learning store on a table and bucket, for whoever builds a function's or the local
 * stack's ports.
 *
 * @example
 * const learning = learningStoreFor({ client, tableName, artefacts, clock: systemClock });
 */
export function learningStoreFor(options: DynamoS3LearningStoreOptions): LearningStore {
  return new DynamoS3LearningStore(options);
}

function describeRule(projectId: string, ruleId: string): string {
  return `rule ${ruleId} of project ${projectId}`;
}
