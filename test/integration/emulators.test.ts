import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient, createS3Client } from '../../lambdas/adapters/aws-clients.js';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { startEmulatorsInThread } from '../../local/emulator-thread.js';
import { startEmulators, type Emulators } from '../../local/emulators.js';
import { LocalStoreInUseError } from '../../local/store-errors.js';
import { makeRun, makeTasks } from '../support/records.js';

/** Stores on the emulators, with a cleanup that closes the clients. */
function connect(emulators: Emulators) {
  const connection = {
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
  };
  const dynamo = createDynamoDocumentClient(connection);
  const s3 = createS3Client({ ...connection, endpoint: emulators.s3Endpoint });
  return {
    runs: new DynamoRunStore({ client: dynamo, tableName: emulators.tableName }),
    artefacts: new S3ArtefactStore({ client: s3, bucket: emulators.bucketName }),
    close: () => {
      dynamo.destroy();
      s3.destroy();
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-emulators-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// The local stack runs them on a worker thread (local/emulator-thread.ts): same behaviour.
describe.each([
  ['startEmulators', startEmulators],
  ['startEmulatorsInThread', startEmulatorsInThread],
])('Function: %s', (_name, startEmulators) => {
  it('starts in memory with the table and bucket ready, and stops twice without error', async () => {
    // Prepare
    const emulators = await startEmulators({ tableName: 'ralph-test', bucketName: 'ralph-test' });
    const stores = connect(emulators);

    // Act
    await stores.runs.createRun(makeRun({ runId: 'memory' }), []);
    await stores.artefacts.put(artefactKeys.manifest('memory'), '{}');

    // Assess
    expect(emulators.dynamoEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulators.s3Endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await stores.runs.getRun('memory')).toBeDefined();
    expect(await stores.artefacts.getText(artefactKeys.manifest('memory'))).toBe('{}');
    stores.close();
    await emulators.stop();
    await emulators.stop();
  });

  it('keeps runs, tasks and artefacts across a restart on the same dataDir', async () => {
    // Prepare
    const dataDir = await tempDataDir();
    const first = await startEmulators({ dataDir });
    const before = connect(first);
    const run = makeRun({ runId: 'durable', storiesTotal: 2 });
    const tasks = makeTasks('durable', 2);
    await before.runs.createRun(run, tasks);
    await before.artefacts.put(artefactKeys.manifest('durable'), '{"kept":true}');
    before.close();
    await first.stop();

    // Act
    const second = await startEmulators({ dataDir });
    cleanups.push(() => second.stop());
    const after = connect(second);
    cleanups.push(async () => after.close());

    // Assess
    expect(await after.runs.getRun('durable')).toEqual(run);
    expect(await after.runs.listTasks('durable')).toEqual(tasks);
    expect((await after.runs.listRuns()).runs).toEqual([run]);
    expect(await after.artefacts.getText(artefactKeys.manifest('durable'))).toBe('{"kept":true}');
  });

  it('refuses a dataDir whose store another emulator holds, and leaves that one working', async () => {
    // Prepare
    const dataDir = await tempDataDir();
    const owner = await startEmulators({ dataDir });
    cleanups.push(() => owner.stop());
    const stores = connect(owner);
    cleanups.push(async () => stores.close());

    // Act
    const second = startEmulators({ dataDir });

    // Assess
    await expect(second).rejects.toThrow(LocalStoreInUseError);
    await expect(second).rejects.toThrow(`the local store in ${dataDir} is in use`);
    await stores.runs.createRun(makeRun({ runId: 'still-works' }), []);
    expect(await stores.runs.getRun('still-works')).toBeDefined();
  });

  it('refuses a table name DynamoDB would refuse', async () => {
    // Act
    const start = startEmulators({ tableName: 'ab' });

    // Assess
    await expect(start).rejects.toThrow('table name "ab" must be 3-255');
  });
});
