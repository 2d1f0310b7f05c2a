/**
 * The learning store of an integration test file, on the emulators useEmulatorStores starts
 * for the file, valid records to store in it, and stores whose client carries a fault
 * (test/support/dynamo-faults.ts).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoS3LearningStore } from '../../lambdas/adapters/dynamodb/learning-store.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import {
  ProjectRuleSchema,
  RegistryPatternSchema,
  RunHintSchema,
  type ProjectRule,
  type RegistryPattern,
  type RunHint,
} from '../../lambdas/core/schemas/learning.js';
import type { Clock } from '../../lambdas/ports.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, loseFirstReply, shortPages } from './dynamo-faults.js';
import { useEmulatorStores } from './emulator-stores.js';

const AT = '2026-03-01T10:00:00.000Z';

/** Archives are stamped at this instant: their keys are known to the test. */
export const ARCHIVED_AT = new Date('2026-04-01T08:30:00.123Z');
const fixedClock: Clock = { now: () => ARCHIVED_AT };

/** Every test uses ids of its own: the table and bucket are shared by the whole file. */
let counter = 0;
export function nextId(label: string): string {
  counter += 1;
  return `${label}-${counter}`;
}

export function makeHint(overrides: Partial<RunHint> = {}): RunHint {
  const iteration = overrides.iteration ?? 3;
  return RunHintSchema.parse({
    runId: 'run-1',
    hintId: `h${iteration}`,
    iteration,
    taskId: 'US-001',
    category: 'bugfix',
    issue: { class: 'typecheck', signature: "TS2532: Object is possibly 'undefined'" },
    scopePaths: ['src/user.ts'],
    sourceIterations: iteration > 1 ? [iteration - 1, iteration] : [iteration],
    lesson: 'check for undefined before reading a property',
    text: 'Resolved typecheck in src/user.ts - check for undefined before reading a property',
    createdAt: AT,
    ...overrides,
  });
}

export function makeRule(overrides: Partial<ProjectRule> = {}): ProjectRule {
  return ProjectRuleSchema.parse({
    projectId: 'acme',
    ruleId: 'r-undefined-check',
    version: 1,
    category: 'bugfix',
    scopePattern: 'src/**',
    issue: { class: 'typecheck', signature: "TS2532: Object is possibly 'undefined'" },
    constraint: 'Check for undefined before reading a property of an optional value.',
    sourceHints: ['run-1/h3', 'run-2/h5'],
    promotionCount: 1,
    firstSeen: AT,
    lastSeen: AT,
    status: 'active',
    ...overrides,
  });
}

export function makeRegistryPattern(overrides: Partial<RegistryPattern> = {}): RegistryPattern {
  return RegistryPatternSchema.parse({
    scope: 'org',
    patternId: 'pat-error-null-check',
    version: 1,
    type: 'error',
    title: "TypeError: Cannot read properties of null (reading 'email')",
    body: 'Add a null check before reading the property.',
    category: 'bugfix',
    issue: { class: 'test', signature: 'TypeError: Cannot read properties of null' },
    tags: ['typescript', 'null-safety'],
    uses: 0,
    successes: 0,
    successRate: 1,
    sources: [{ runId: 'run-1', projectId: 'acme', iterations: [2, 3], at: AT }],
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  });
}

export interface LearningFixture {
  emulators: Emulators;
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  runs: DynamoRunStore;
  artefacts: S3ArtefactStore;
  /** Stamps archives at ARCHIVED_AT. */
  learning: DynamoS3LearningStore;
  /** A store whose client loses the reply to its first `commandName` request. */
  storeLosingFirstReply(commandName: string): {
    lossyStore: DynamoS3LearningStore;
    sent: () => number;
    close: () => void;
  };
  /** A store whose Query pages hold at most `pageSize` items. */
  storeWithSmallPages(pageSize: number): { pagedStore: DynamoS3LearningStore; close: () => void };
}

/**
 * Registers the file's emulators; `ready` receives the fixture once they run.
 *
 * @example
 * let fx: LearningFixture;
 * useLearningStores((fixture) => (fx = fixture));
 */
export function useLearningStores(ready: (fixture: LearningFixture) => void): void {
  useEmulatorStores(({ emulators, dynamo, s3, runs, artefacts }) => {
    const storeOn = (client: ReturnType<typeof emulatorDynamoClient>) =>
      new DynamoS3LearningStore({
        client,
        tableName: emulators.tableName,
        artefacts,
        clock: fixedClock,
      });
    ready({
      emulators,
      dynamo,
      s3,
      runs,
      artefacts,
      learning: new DynamoS3LearningStore({
        client: dynamo,
        tableName: emulators.tableName,
        artefacts,
        clock: fixedClock,
      }),
      storeLosingFirstReply: (commandName) => {
        const lossy = emulatorDynamoClient(emulators, 4);
        const sent = loseFirstReply(lossy, commandName);
        return { lossyStore: storeOn(lossy), sent, close: () => lossy.destroy() };
      },
      storeWithSmallPages: (pageSize) => {
        const paged = emulatorDynamoClient(emulators);
        shortPages(paged, pageSize);
        return { pagedStore: storeOn(paged), close: () => paged.destroy() };
      },
    });
  });
}
