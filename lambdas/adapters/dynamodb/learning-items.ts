/**
 * Where learning's records live on the single table (docs/data-model.md, "Learning"): a
 * run's hints in the run's partition, a project's rules in the project's, and each registry
 * scope's patterns in a partition of its own. The key builders, the item each record is
 * stored as, and the one query that lists a kind of record.
 */
import {
  ProjectRuleSchema,
  RegistryPatternSchema,
  RegistryScopeSchema,
  RunHintSchema,
  type ProjectRule,
  type RegistryScope,
  type RunHint,
} from '../../core/schemas/learning.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import { TABLE_KEYS } from '../table-design.js';
import type { ItemTable } from './item-table.js';
import { runStoreKeys } from './run-items.js';
import { dropUndefined, type Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK } = TABLE_KEYS;

/**
 * The key builders, exported so that docs/data-model.md, the tests and any repair script
 * name items exactly as the store does. No prefix here begins another's in the same
 * partition: `HINT#` beside the run's `META`, `ITER#`, `TASK#`, `FIXPR#`; `RULE#` beside the
 * project's `BATCH#`, `RUNS#`, `PATTERNS#`.
 */
export const learningKeys = {
  /** In the run's partition (`RUN#<runId>`), so pruning the run deletes its hints. */
  hintSk: (hintId: string) => `HINT#${hintId}`,
  hintPrefix: 'HINT#',
  projectPk: (projectId: string) => `PROJECT#${projectId}`,
  ruleSk: (ruleId: string) => `RULE#${ruleId}`,
  rulePrefix: 'RULE#',
  /** `REGISTRY#org`, `REGISTRY#project:<projectId>`. */
  registryPk: (scope: RegistryScope) => `REGISTRY#${scope}`,
  patternSk: (patternId: string) => `PATTERN#${patternId}`,
  patternPrefix: 'PATTERN#',
} as const;

/** The ids that become key segments, checked before a read as a record's are before a write. */
export const checkedId = {
  run: (runId: string) => parseOrThrow(RunHintSchema.shape.runId, runId, 'run id'),
  project: (projectId: string) =>
    parseOrThrow(ProjectRuleSchema.shape.projectId, projectId, 'project id'),
  rule: (ruleId: string) => parseOrThrow(ProjectRuleSchema.shape.ruleId, ruleId, 'rule id'),
  scope: (scope: string) => parseOrThrow(RegistryScopeSchema, scope, 'registry scope'),
  pattern: (patternId: string) =>
    parseOrThrow(RegistryPatternSchema.shape.patternId, patternId, 'pattern id'),
} as const;

export function hintKey(runId: string, hintId: string): Item {
  return { [PK]: runStoreKeys.runPk(runId), [SK]: learningKeys.hintSk(hintId) };
}

export function hintItem(hint: RunHint): Item {
  return { ...dropUndefined(hint), ...hintKey(hint.runId, hint.hintId) };
}

export function ruleKey(projectId: string, ruleId: string): Item {
  return { [PK]: learningKeys.projectPk(projectId), [SK]: learningKeys.ruleSk(ruleId) };
}

export function ruleItem(rule: ProjectRule): Item {
  return { ...dropUndefined(rule), ...ruleKey(rule.projectId, rule.ruleId) };
}

export function patternKey(scope: RegistryScope, patternId: string): Item {
  return { [PK]: learningKeys.registryPk(scope), [SK]: learningKeys.patternSk(patternId) };
}

/** Every item of partition `pk` whose sort key starts with `prefix`: consistent, every page. */
export async function queryPrefix(
  table: ItemTable,
  pk: string,
  prefix: string,
  what: string,
): Promise<Item[]> {
  return table.query(
    {
      keyCondition: '#pk = :pk AND begins_with(#sk, :prefix)',
      names: { '#pk': PK, '#sk': SK },
      values: { ':pk': pk, ':prefix': prefix },
    },
    what,
  );
}
