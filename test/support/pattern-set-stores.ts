/**
 * The pattern-set store of an integration test file, on the emulators that
 * useEmulatorStores starts for the file, with what its tests do behind its back: publish a
 * series of versions, read an item raw, overwrite a body, and hook its PutItem calls.
 */
import { Buffer } from 'node:buffer';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { patternSetKeys } from '../../lambdas/adapters/pattern-sets/pattern-set-keys.js';
import { DynamoS3PatternSetStore } from '../../lambdas/adapters/pattern-sets/pattern-set-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { PatternSetDraft } from '../../lambdas/core/schemas/pattern-sets.js';
import type { Clock } from '../../lambdas/ports.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, hookRequests, type HookAction } from './dynamo-faults.js';
import { useEmulatorStores } from './emulator-stores.js';
import { makePattern } from './evaluation.js';

/** One second later at every reading, so every stamp differs. */
function steppingClock(start = Date.parse('2026-02-01T10:00:00Z')): Clock {
  let next = start;
  return {
    now: () => {
      const now = new Date(next);
      next += 1_000;
      return now;
    },
  };
}

/** Every test uses its own project: the table and bucket are shared by the whole file. */
let projectCounter = 0;
export function nextProjectId(label: string): string {
  projectCounter += 1;
  return `${label}-${projectCounter}`;
}

/** A valid draft whose single pattern is told apart by its keyword. */
export function draft(keyword: string, weight = 1): PatternSetDraft {
  return {
    schemaVersion: '2.0',
    patterns: [makePattern({ id: 'p_001', keywords: [keyword], weight })],
  };
}

export interface PatternSetFixture {
  emulators: Emulators;
  s3: S3Client;
  artefacts: S3ArtefactStore;
  store: DynamoS3PatternSetStore;
  /** Publishes `count` versions, each on the previous one: v1..v{count}. */
  publishVersions(projectId: string, count: number): Promise<void>;
  readRaw(projectId: string, sk: string): Promise<Record<string, unknown> | undefined>;
  /** Replaces a body behind the store's back (no If-None-Match), as corruption would. */
  overwriteBody(projectId: string, version: number, body: string): Promise<void>;
  /**
   * A store whose DynamoDB client runs `intercept` before each PutItem it sends, with the
   * item's sort key and the put's number (1-based).
   */
  storeWithPutHook(
    intercept: (put: { sk: string | undefined; count: number }) => Promise<HookAction>,
  ): { hookedStore: DynamoS3PatternSetStore; puts: () => number; close: () => void };
}

/**
 * Registers the file's emulators; `ready` receives the fixture once they run.
 *
 * @example
 * let fx: PatternSetFixture;
 * usePatternSetStores((fixture) => (fx = fixture));
 */
export function usePatternSetStores(ready: (fixture: PatternSetFixture) => void): void {
  useEmulatorStores(({ emulators, dynamo, s3, artefacts }) => {
    const store = new DynamoS3PatternSetStore({
      client: dynamo,
      tableName: emulators.tableName,
      artefacts,
      clock: steppingClock(),
    });
    ready({
      emulators,
      s3,
      artefacts,
      store,
      publishVersions: async (projectId, count) => {
        for (let version = 1; version <= count; version += 1)
          await store.publish(projectId, draft(`k${version}`), {
            expectedCurrent: version === 1 ? null : version - 1,
            reason: `change ${version}`,
          });
      },
      readRaw: (projectId, sk) => readRaw(dynamo, emulators, projectId, sk),
      overwriteBody: async (projectId, version, body) => {
        await s3.send(
          new PutObjectCommand({
            Bucket: emulators.bucketName,
            Key: artefactKeys.patternSet(projectId, version),
            Body: body,
            ContentLength: Buffer.byteLength(body),
          }),
        );
      },
      storeWithPutHook: (intercept) => storeWithPutHook(emulators, artefacts, intercept),
    });
  });
}

async function readRaw(
  dynamo: DynamoDBDocumentClient,
  emulators: Emulators,
  projectId: string,
  sk: string,
) {
  const result = await dynamo.send(
    new GetCommand({
      TableName: emulators.tableName,
      Key: { pk: patternSetKeys.projectPk(projectId), sk },
      ConsistentRead: true,
    }),
  );
  return result.Item;
}

function storeWithPutHook(
  emulators: Emulators,
  artefacts: S3ArtefactStore,
  intercept: (put: { sk: string | undefined; count: number }) => Promise<HookAction>,
) {
  const hooked = emulatorDynamoClient(emulators, 4);
  const puts = hookRequests(hooked, 'PutItemCommand', ({ input, count }) => {
    const sk = (input as { Item?: { sk?: { S?: string } } }).Item?.sk?.S;
    return intercept({ sk, count });
  });
  return {
    hookedStore: new DynamoS3PatternSetStore({
      client: hooked,
      tableName: emulators.tableName,
      artefacts,
      clock: steppingClock(Date.parse('2026-03-01T00:00:00Z')),
    }),
    puts,
    close: () => hooked.destroy(),
  };
}
