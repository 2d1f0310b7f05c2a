/**
 * DynamoS3LearningStore's hints and rules against the DynamoDB emulator: a hint kept once
 * in its run's partition (beside the run's own records, deleted with them), rules created
 * and saved on their version in the project's partition (beside its batches, run counts
 * and pattern set), a retried write recognised, a malformed record refused before writing.
 */
import { describe, expect, it } from 'vitest';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { learningKeys } from '../../lambdas/adapters/dynamodb/learning-items.js';
import { DynamoS3PatternSetStore } from '../../lambdas/adapters/pattern-sets/pattern-set-store.js';
import {
  InvalidInputError,
  NotFoundError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { ProjectRule } from '../../lambdas/core/schemas/learning.js';
import { makeBatch } from '../support/incident-records.js';
import {
  makeHint,
  makeRule,
  nextId,
  useLearningStores,
  type LearningFixture,
} from '../support/learning-stores.js';
import { draft } from '../support/pattern-set-stores.js';
import { makeIteration, makeRun, makeTasks } from '../support/records.js';

let fx: LearningFixture;
useLearningStores((fixture) => (fx = fixture));

describe('Class: DynamoS3LearningStore', () => {
  describe('Method: putHint', () => {
    it('keeps a hint once: the same hint again is a no-op, another under its id a conflict', async () => {
      // Prepare
      const runId = nextId('hint-once');
      const hint = makeHint({ runId, iteration: 4 });

      // Act
      await fx.learning.putHint(hint);
      await fx.learning.putHint({ ...hint });
      const other = fx.learning.putHint({ ...hint, lesson: 'something else' });

      // Assess
      await expect(other).rejects.toThrow(VersionConflictError);
      await expect(other).rejects.toThrow(`hint h4 of run ${runId} already exists`);
      expect(await fx.learning.listHints(runId)).toEqual([hint]);
    });

    it('counts a put whose reply was lost (the SDK retried it) as kept by this call', async () => {
      // Prepare
      const runId = nextId('hint-lost');
      const hint = makeHint({ runId });
      const { lossyStore, sent, close } = fx.storeLosingFirstReply('PutItemCommand');

      // Act
      await lossyStore.putHint(hint);
      close();

      // Assess
      expect(sent()).toBe(2);
      expect(await fx.learning.listHints(runId)).toEqual([hint]);
    });

    it('refuses a malformed hint with its paths, and writes nothing', async () => {
      // Prepare
      const runId = nextId('hint-bad');
      const hint = { ...makeHint({ runId }), iteration: 0, text: '' };

      // Act
      const put = fx.learning.putHint(hint);

      // Assess
      await expect(put).rejects.toThrow(InvalidInputError);
      await expect(put).rejects.toMatchObject({
        issues: [expect.stringMatching(/^iteration: /), expect.stringMatching(/^text: /)],
      });
      expect(await fx.learning.listHints(runId)).toEqual([]);
    });
  });

  describe('Method: listHints', () => {
    it('lists a run’s hints in iteration order (h2 before h10), none of another run’s', async () => {
      // Prepare
      const runId = nextId('hint-order');
      for (const iteration of [10, 2, 7]) await fx.learning.putHint(makeHint({ runId, iteration }));
      await fx.learning.putHint(makeHint({ runId: nextId('hint-other'), iteration: 1 }));

      // Act
      const hints = await fx.learning.listHints(runId);

      // Assess
      expect(hints.map((hint) => hint.hintId)).toEqual(['h2', 'h7', 'h10']);
    });

    it('lives beside the run’s records without being listed as them, and goes with the run', async () => {
      // Prepare
      const runId = nextId('hint-run');
      await fx.runs.createRun(makeRun({ runId, storiesTotal: 2 }), makeTasks(runId, 2));
      await fx.runs.createIteration(makeIteration({ runId, iteration: 1 }));
      await fx.learning.putHint(makeHint({ runId, iteration: 1 }));
      await fx.learning.putHint(makeHint({ runId, iteration: 2 }));

      // Act
      const iterations = await fx.runs.listIterations(runId);
      const tasks = await fx.runs.listTasks(runId);
      const deleted = await fx.runs.deleteRun(runId);

      // Assess
      expect(iterations.map((iteration) => iteration.iteration)).toEqual([1]);
      expect(tasks).toHaveLength(2);
      expect(deleted).toBe(1 + 2 + 1 + 2);
      expect(await fx.learning.listHints(runId)).toEqual([]);
      expect(await fx.runs.getRun(runId)).toBeUndefined();
    });

    it('refuses a run id that cannot be a key segment', async () => {
      // Act
      const listed = fx.learning.listHints('run/1');

      // Assess
      await expect(listed).rejects.toThrow(InvalidInputError);
      await expect(listed).rejects.toThrow('run id is invalid');
    });
  });

  describe('Method: saveRule', () => {
    it('creates a rule at version 1, saves it on its version, and refuses a stale save', async () => {
      // Prepare
      const projectId = nextId('rules');
      const rule = makeRule({ projectId, version: 7 });

      // Act
      const created = await fx.learning.saveRule(rule, undefined);
      const again = fx.learning.saveRule(rule, undefined);
      const saved = await fx.learning.saveRule(
        { ...created, promotionCount: 2, lastSeen: '2026-03-02T10:00:00.000Z' },
        created.version,
      );
      const stale = fx.learning.saveRule({ ...created, status: 'deprecated' }, created.version);

      // Assess
      expect(created).toEqual({ ...rule, version: 1 });
      await expect(again).rejects.toThrow(VersionConflictError);
      expect(saved).toMatchObject({ version: 2, promotionCount: 2 });
      await expect(stale).rejects.toThrow(
        `rule r-undefined-check of project ${projectId} was not saved: expected version 1, but the stored version is 2`,
      );
      expect(await fx.learning.getRule(projectId, rule.ruleId)).toEqual(saved);
    });

    it('says a saved rule that is not there is not found', async () => {
      // Prepare
      const projectId = nextId('rules-missing');

      // Act
      const saved = fx.learning.saveRule(makeRule({ projectId }), 1);

      // Assess
      await expect(saved).rejects.toThrow(NotFoundError);
      expect(await fx.learning.getRule(projectId, 'r-undefined-check')).toBeUndefined();
    });

    it('counts a save whose reply was lost (the SDK retried it) as this call’s', async () => {
      // Prepare
      const projectId = nextId('rules-lost');
      const created = await fx.learning.saveRule(makeRule({ projectId }), undefined);
      const { lossyStore, sent, close } = fx.storeLosingFirstReply('PutItemCommand');

      // Act
      const saved = await lossyStore.saveRule({ ...created, promotionCount: 3 }, 1);
      close();

      // Assess
      expect(sent()).toBe(2);
      expect(saved.version).toBe(2);
      expect(await fx.learning.getRule(projectId, created.ruleId)).toEqual(saved);
    });

    it('refuses a malformed rule with its paths, and writes nothing', async () => {
      // Prepare
      const projectId = nextId('rules-bad');
      const rule = { ...makeRule({ projectId }), sourceHints: [], status: 'gone' };

      // Act
      const saved = fx.learning.saveRule(rule as unknown as ProjectRule, undefined);

      // Assess
      await expect(saved).rejects.toThrow(InvalidInputError);
      await expect(saved).rejects.toMatchObject({
        issues: [expect.stringMatching(/^sourceHints: /), expect.stringMatching(/^status: /)],
      });
      expect(await fx.learning.listRules(projectId)).toEqual([]);
    });
  });

  describe('Method: listRules', () => {
    it('lists every rule of the project by id, and none of the project’s other items', async () => {
      // Prepare: the project's partition also holds a batch, a run count and a pattern set.
      const projectId = nextId('rules-list');
      const incidents = new DynamoIncidentStore({
        client: fx.dynamo,
        tableName: fx.emulators.tableName,
      });
      await incidents.saveBatch(makeBatch({ projectId }), undefined);
      await incidents.countRun(projectId, '2026-03-01T10', 5);
      const patternSets = new DynamoS3PatternSetStore({
        client: fx.dynamo,
        tableName: fx.emulators.tableName,
        artefacts: fx.artefacts,
      });
      await patternSets.publish(projectId, draft('user can'), {
        expectedCurrent: null,
        reason: 'first',
      });
      for (const ruleId of ['r-c', 'r-a', 'r-b'])
        await fx.learning.saveRule(makeRule({ projectId, ruleId }), undefined);
      await fx.learning.saveRule(makeRule({ projectId: nextId('rules-other') }), undefined);

      // Act
      const rules = await fx.learning.listRules(projectId);

      // Assess
      expect(rules.map((rule) => rule.ruleId)).toEqual(['r-a', 'r-b', 'r-c']);
      expect(await incidents.latestBatch(projectId)).toMatchObject({ batchId: 'b00000001' });
      expect((await patternSets.current(projectId))?.version).toBe(1);
      expect(learningKeys.projectPk(projectId)).toBe(`PROJECT#${projectId}`);
    });

    it('reads every page of a long list', async () => {
      // Prepare
      const projectId = nextId('rules-pages');
      const ruleIds = Array.from(
        { length: 23 },
        (_, index) => `r-${String(index).padStart(3, '0')}`,
      );
      for (const ruleId of ruleIds)
        await fx.learning.saveRule(makeRule({ projectId, ruleId }), undefined);
      const { pagedStore, close } = fx.storeWithSmallPages(5);

      // Act
      const rules = await pagedStore.listRules(projectId);
      close();

      // Assess
      expect(rules.map((rule) => rule.ruleId)).toEqual(ruleIds);
    });
  });
});
