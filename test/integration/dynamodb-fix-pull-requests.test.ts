/**
 * DynamoFixPullRequests against the DynamoDB emulator: a conditional create that a second
 * create cannot repeat, optimistic saves, and the record going with its run when the run is
 * pruned.
 */
import { describe, expect, it } from 'vitest';
import { DynamoFixPullRequests } from '../../lambdas/adapters/dynamodb/fix-pull-requests.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { InvalidInputError, VersionConflictError } from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeFixPullRequest } from '../support/investigation-records.js';
import { makeRun } from '../support/records.js';
import { nextRunId } from '../support/run-stores.js';

let emulators: Emulators;
let runs: DynamoRunStore;
let records: DynamoFixPullRequests;

useEmulatorStores((stores) => {
  ({ emulators, runs } = stores);
  records = new DynamoFixPullRequests({ client: stores.dynamo, tableName: emulators.tableName });
});

describe('Class: DynamoFixPullRequests', () => {
  it('creates version 1, reads it back, and refuses a second create', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    const record = makeFixPullRequest({ runId, version: 7 });

    // Act
    const created = await records.save(record, undefined);

    // Assess
    expect(created.version).toBe(1);
    expect(await records.get(runId, 'ERR-1')).toEqual(created);
    await expect(records.save(record, undefined)).rejects.toThrow(VersionConflictError);
    expect(await records.get(runId, 'ERR-2')).toBeUndefined();
  });

  it('saves over the version read and refuses a stale one', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    const created = await records.save(makeFixPullRequest({ runId }), undefined);

    // Act
    const opened = await records.save(
      { ...created, state: 'opened', number: 4, htmlUrl: 'https://x/4', draft: true },
      created.version,
    );

    // Assess
    expect(opened).toMatchObject({ state: 'opened', number: 4, version: 2 });
    await expect(
      records.save({ ...created, state: 'refused', reason: 'late' }, created.version),
    ).rejects.toThrow(/expected version 1, but the stored version is 2/);
    expect(await records.get(runId, 'ERR-1')).toEqual(opened);
  });

  it('keeps a refusal without a fix, with its comment', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    const refused = makeFixPullRequest({
      runId,
      branch: undefined,
      commit: undefined,
      state: 'refused',
      reason: 'no fix',
      comment: { issueNumber: 7, state: 'pending' },
    });

    // Act
    const created = await records.save(refused, undefined);

    // Assess
    expect(await records.get(runId, 'ERR-1')).toEqual(created);
  });

  it('refuses a pending record without its branch, before writing', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    const broken = { ...makeFixPullRequest({ runId }), branch: undefined };

    // Act & Assess
    await expect(records.save(broken, undefined)).rejects.toThrow(InvalidInputError);
    await expect(records.save(broken, undefined)).rejects.toThrow(/branch/);
    expect(await records.get(runId, 'ERR-1')).toBeUndefined();
  });

  it('goes when its run is pruned', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    await runs.createRun(makeRun({ runId }), []);
    await records.save(makeFixPullRequest({ runId }), undefined);

    // Act
    const deleted = await runs.deleteRun(runId);

    // Assess
    expect(deleted).toBe(2);
    expect(await records.get(runId, 'ERR-1')).toBeUndefined();
  });
});
