/**
 * The Advance step recording an iteration, against dynalite and s3rver through the real
 * adapters: what a passed, reviewed or failed iteration leaves on its task and run, and
 * that a step retried after a lost race (Step Functions retries VersionConflictError)
 * counts nothing twice.
 */
import { describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../lambdas/core/errors.js';
import { requestCancel } from '../../lambdas/core/steps/lifecycle.js';
import { makeTask } from '../support/records.js';
import {
  deps,
  depsRacedOnRunSave,
  missingTests,
  nextRunId,
  readBack,
  record,
  recorded,
  result,
  saveAgain,
  stored,
  useAdvanceStores,
  warnings,
} from '../support/advance-runs.js';

useAdvanceStores();

describe('Function: advanceStep, recording', () => {
  describe('review', () => {
    it('leaves a story that passed with findings in review, not counted as passed', async () => {
      // Prepare / Act
      const runId = nextRunId('findings');
      const { run, tasks } = await recorded(result(runId, 1, { findings: [missingTests] }));

      // Assess
      expect(tasks[0]).toMatchObject({
        status: 'in_review',
        review: { findings: [missingTests], reviews: 0, iteration: 1 },
      });
      expect(run.storiesPassed).toBe(0);
      // The pass still counts for the run: no failure streak, a checkpoint of 0 stories.
      expect(run).toMatchObject({ consecutiveFailures: 0, iterationsCompleted: 1 });
      expect(run.control?.checkpoints.at(-1)?.quality.storiesComplete).toBe(0);
    });

    it('counts a story that passed without findings', async () => {
      // Prepare / Act
      const runId = nextRunId('clean');
      const { run, tasks } = await recorded(result(runId, 1));

      // Assess
      expect(tasks[0]?.status).toBe('complete');
      expect(tasks[0]).not.toHaveProperty('review');
      expect(run.storiesPassed).toBe(1);
      expect(run.control?.checkpoints.at(-1)?.quality.storiesComplete).toBe(1);
    });

    it.each([
      [0, 'complete', 1],
      [1, 'in_review', 0],
    ] as const)(
      'with maxReviewIterations %i, a pass with findings leaves the story %s (%i passed)',
      async (maxReviewIterations, status, passed) => {
        // Prepare / Act
        const runId = nextRunId(`limit-${maxReviewIterations}`);
        const { run, tasks } = await recorded(result(runId, 1, { findings: [warnings] }), {
          config: { control: { quality: { maxReviewIterations } } },
        });

        // Assess
        expect(tasks[0]?.status).toBe(status);
        expect(tasks[0]?.review?.findings).toEqual([warnings]);
        expect(run.storiesPassed).toBe(passed);
      },
    );

    it('completes a story in review when its review iteration passes, with the limit read from the config', async () => {
      // Prepare: in review after iteration 1; a limit of 2 leaves room for another review.
      const inReview = (runId: string) =>
        makeTask({
          runId,
          status: 'in_review',
          attempts: 1,
          lastIteration: 1,
          review: { findings: [missingTests], reviews: 0, iteration: 1 },
        });
      const config = { control: { quality: { maxReviewIterations: 2 } } };
      const againId = nextRunId('review-again');
      const cleanId = nextRunId('review-clean');

      // Act: the review iteration still finds something; in another run it does not.
      const again = await recorded(result(againId, 2, { findings: [warnings] }), {
        tasks: [inReview(againId)],
        config,
      });
      const clean = await recorded(result(cleanId, 2), { tasks: [inReview(cleanId)], config });

      // Assess: 1 review of 2 used: still in review; a clean review completes it.
      expect(again.tasks[0]).toMatchObject({
        status: 'in_review',
        review: { findings: [warnings], reviews: 1, iteration: 2 },
      });
      expect(again.run.storiesPassed).toBe(0);
      expect(clean.tasks[0]).toMatchObject({
        status: 'complete',
        review: { findings: [], reviews: 1, iteration: 2 },
      });
      expect(clean.run.storiesPassed).toBe(1);
    });

    it("does not count a decomposed story's subtask that is not its last", async () => {
      // Prepare
      const runId = nextRunId('subtask');
      const decomposed = makeTask({
        runId,
        status: 'in_progress',
        subtasks: [
          { id: 'US-001.1', title: 'First half', acceptanceCriteria: ['a'], status: 'open' },
          { id: 'US-001.2', title: 'Second half', acceptanceCriteria: ['b'], status: 'open' },
        ],
      });

      // Act
      const { run, tasks } = await recorded(result(runId, 1, { subtaskId: 'US-001.1' }), {
        tasks: [decomposed],
      });

      // Assess
      expect(tasks[0]?.status).toBe('in_progress');
      expect(tasks[0]?.subtasks?.map((subtask) => subtask.status)).toEqual(['complete', 'open']);
      expect(run.storiesPassed).toBe(0);
    });
  });

  describe('a step retried after losing a race on the run', () => {
    it.each([
      ['with findings', [missingTests], 'in_review', 0, '0 of 2 stories pass, 1 in review'],
      ['without findings', [], 'complete', 1, '1 of 2 stories pass'],
    ] as const)(
      'counts a pass %s once, from the task the first attempt saved',
      async (_label, findings, status, passed, reason) => {
        // Prepare: the first attempt saves task and iteration, and loses the run to a writer.
        const runId = nextRunId('race');
        await stored(result(runId, 1, { findings: [...findings] }));
        const raced = depsRacedOnRunSave(runId, saveAgain);
        const first = record(runId, 1, raced.deps);
        await expect(first).rejects.toThrow(VersionConflictError);
        await expect(first).rejects.toMatchObject({ name: 'VersionConflictError' });
        await raced.settled();
        raced.close();
        const afterFirst = await readBack(runId);
        const iterationAfterFirst = await deps.runs.getIteration(runId, 1);

        // Act: Step Functions retries the step; it reads the task it saved, the run it did not.
        const output = await record(runId, 1);

        // Assess: the race really happened, and the first attempt counted nothing on the run.
        expect(raced.raced()).toBe(true);
        expect(afterFirst.tasks[0]).toMatchObject({ status, attempts: 1, version: 2 });
        expect(afterFirst.run).toMatchObject({
          version: 2,
          lastRecordedIteration: 0,
          iterationsCompleted: 0,
          storiesPassed: 0,
        });
        expect(iterationAfterFirst).toMatchObject({ status: 'recorded', version: 2 });
        // The retry counted the iteration once and left the task as the first attempt saved it.
        const { run, tasks } = await readBack(runId);
        expect(tasks[0]).toEqual(afterFirst.tasks[0]);
        expect(run).toMatchObject({
          version: 3,
          lastRecordedIteration: 1,
          iterationsCompleted: 1,
          storiesPassed: passed,
          consecutiveFailures: 0,
        });
        expect(run.control?.history.filter((entry) => entry.iteration === 1)).toHaveLength(1);
        expect(await deps.runs.getIteration(runId, 1)).toEqual(iterationAfterFirst);
        // The run goes on: the retry, which counted the iteration, planned the next one.
        expect(output).toStrictEqual({
          runId,
          segment: 1,
          iteration: 2,
          action: 'continue',
          reason,
          planned: true,
        });
      },
    );

    it('keeps a cancel requested while the step ran, and the retry decides to cancel', async () => {
      // Prepare: `ralph cancel` saves the run between the step's read and its write.
      const runId = nextRunId('race-cancel');
      await stored(result(runId, 1));
      const raced = depsRacedOnRunSave(runId, () => requestCancel(deps, runId));
      await expect(record(runId, 1, raced.deps)).rejects.toThrow(VersionConflictError);
      await raced.settled();
      raced.close();

      // Act
      const output = await record(runId, 1);

      // Assess: the stale run did not overwrite the request; the story counted once.
      const { run } = await readBack(runId);
      expect(run).toMatchObject({
        cancelRequested: true,
        lastRecordedIteration: 1,
        iterationsCompleted: 1,
        storiesPassed: 1,
      });
      expect(output).toMatchObject({ action: 'cancel', reason: 'cancelled on request' });
    });
  });
});
