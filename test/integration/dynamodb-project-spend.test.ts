/**
 * A project's spend per day (DynamoRunStore's addProjectSpend / getProjectSpend) against the
 * DynamoDB emulator: atomic sums, an iteration counted once however often it is added, and
 * bad days refused before anything is written.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { projectSpendKeys } from '../../lambdas/adapters/dynamodb/project-spend-items.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { nextRunId } from '../support/run-stores.js';

let emulators: Emulators;
let client: DynamoDBDocumentClient;
let store: DynamoRunStore;

useEmulatorStores((stores) => ({ emulators, dynamo: client, runs: store } = stores));

describe('Class: DynamoRunStore (project spend)', () => {
  describe('Method: addProjectSpend', () => {
    it("sums iterations of several runs into the project's day", async () => {
      // Prepare
      const projectId = nextRunId('spend-sum');

      // Act: two runs at once, and a third iteration
      await Promise.all([
        store.addProjectSpend({ projectId, day: '2026-11-27', usd: 0.25, countedAs: 'a#1' }),
        store.addProjectSpend({ projectId, day: '2026-11-27', usd: 0.5, countedAs: 'b#1' }),
      ]);
      await store.addProjectSpend({ projectId, day: '2026-11-27', usd: 1, countedAs: 'a#2' });

      // Assess
      expect(await store.getProjectSpend(projectId, '2026-11-27')).toBe(1.75);
      expect(await store.getProjectSpend(projectId, '2026-11-28')).toBe(0);
    });

    it('counts an iteration once when a retried step adds it again', async () => {
      // Prepare
      const projectId = nextRunId('spend-once');
      const entry = { projectId, day: '2026-11-27', usd: 0.4, countedAs: 'run-1#3' };

      // Act
      await store.addProjectSpend(entry);
      await store.addProjectSpend(entry);

      // Assess
      expect(await store.getProjectSpend(projectId, '2026-11-27')).toBe(0.4);
      const item = await client.send(
        new GetCommand({
          TableName: emulators.tableName,
          Key: { pk: projectSpendKeys.pk(projectId), sk: projectSpendKeys.sk('2026-11-27') },
          ConsistentRead: true,
        }),
      );
      expect(item.Item).toMatchObject({ projectId, day: '2026-11-27', usd: 0.4 });
      expect([...(item.Item?.['counted'] as Set<string>)]).toEqual(['run-1#3']);
    });

    it('refuses a day that is not YYYY-MM-DD, writing nothing', async () => {
      const projectId = nextRunId('spend-bad');
      await expect(
        store.addProjectSpend({ projectId, day: '27/11/2026', usd: 1, countedAs: 'r#1' }),
      ).rejects.toBeInstanceOf(InvalidInputError);
      await expect(store.getProjectSpend(projectId, 'today')).rejects.toThrow(/YYYY-MM-DD/);
    });
  });
});
