/**
 * The worker side of local/emulator-thread.ts: starts the emulators in this thread, says
 * where they listen, and stops them when told.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RalphError } from '../lambdas/core/errors.js';
import { startEmulators, type EmulatorOptions } from './emulators.js';
import { LocalStoreDamagedError } from './store-errors.js';
import type { ThreadMessage } from './emulator-thread.js';

const port = parentPort;
if (!port) throw new Error('emulator-thread-entry runs as a worker thread only');
const post = (message: ThreadMessage) => port.postMessage(message);

try {
  const emulators = await startEmulators(workerData as EmulatorOptions);
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    emulators.stop().then(
      () => post({ kind: 'stopped' }),
      (error: unknown) => post({ kind: 'stopped', error: describe(error) }),
    );
  });
  const { dynamoEndpoint, s3Endpoint, tableName, bucketName, credentials, region } = emulators;
  post({
    kind: 'ready',
    emulators: { dynamoEndpoint, s3Endpoint, tableName, bucketName, credentials, region },
  });
} catch (error) {
  post({ kind: 'failed', error: describe(error) });
}

function describe(error: unknown): { message: string; code?: string; detail?: string } {
  if (error instanceof LocalStoreDamagedError)
    return { message: error.message, code: error.code, detail: error.detail };
  if (error instanceof RalphError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error) };
}
