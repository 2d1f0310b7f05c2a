/**
 * The local emulators on a worker thread of their own. In the local stack one process
 * runs the state machine, the handlers, the runner and both emulators: on one thread,
 * every DynamoDB or S3 call costs the event loop both the client's work and the server's
 * (dynalite's LevelDB and s3rver's Koa and file system work), and they queue behind each
 * other. On a worker thread the servers run beside the loop, on another core when there
 * is one. They are still in this process: they stop with it, and a run needs no daemon.
 */
import { resolve } from 'node:path';
import { RalphError } from '../lambdas/core/errors.js';
import type { EmulatorOptions, Emulators } from './emulators.js';
import {
  isLevelDamage,
  levelDetail,
  LocalStoreDamagedError,
  LocalStoreInUseError,
} from './store-errors.js';
import { moduleEntry } from './module-entry.js';

/** What the worker says (local/emulator-thread-entry.ts). */
export type ThreadMessage =
  | { kind: 'ready'; emulators: Omit<Emulators, 'stop'> }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'stopped'; error?: ThreadError };
interface ThreadError {
  message: string;
  code?: string;
  /** What LevelDB said, for a damaged store. */
  detail?: string;
}

/**
 * startEmulators, run on a worker thread.
 *
 * @example
 * const emulators = await startEmulatorsInThread({ dataDir: '.ralph' });
 * // ... emulators.dynamoEndpoint, emulators.s3Endpoint
 * await emulators.stop();
 */
export async function startEmulatorsInThread(options: EmulatorOptions = {}): Promise<Emulators> {
  const worker = moduleEntry('./emulator-thread-entry.ts', import.meta.url).startWorker({
    workerData: options,
  });
  const exited = new Promise<number>((done) => worker.once('exit', done));
  const first = await new Promise<ThreadMessage>((settle, fail) => {
    worker.once('message', settle);
    // dynalite reads LevelDB's tables lazily: a damaged one surfaces on the first request
    // (the table check at start-up) as an error it does not catch, which ends the thread.
    worker.once('error', (error) => fail(damaged(error, options) ?? error));
    void exited.then((code) => fail(new Error(`the emulator thread exited (code ${code})`)));
  });
  if (first.kind !== 'ready') {
    await worker.terminate();
    throw toError(
      first.kind === 'failed' ? first.error : { message: 'unexpected message' },
      options,
    );
  }

  // Past start-up a failure in the thread shows as refused connections; say why as well.
  worker.on('error', (error) =>
    process.stderr.write(`emulator thread: ${(damaged(error, options) ?? error).message}\n`),
  );
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    const stopped = new Promise<ThreadMessage>((done) => worker.once('message', done));
    worker.postMessage('stop');
    const reply = await Promise.race([stopped, exited.then(() => undefined)]);
    await worker.terminate();
    if (reply?.kind === 'stopped' && reply.error) throw toError(reply.error, options);
  };
  return { ...first.emulators, stop: () => (stopping ??= stop()) };
}

function toError(error: ThreadError, options: EmulatorOptions): Error {
  if (error.code === 'LOCAL_STORE_IN_USE' && options.dataDir !== undefined)
    return new LocalStoreInUseError(resolve(options.dataDir));
  if (error.code === 'LOCAL_STORE_DAMAGED' && options.dataDir !== undefined)
    return new LocalStoreDamagedError(resolve(options.dataDir), error.detail ?? error.message);
  return new RalphError(error.message, error.code === undefined ? {} : { code: error.code });
}

/** A LevelDB failure of the data dir's store, as the error that says how to recover. */
function damaged(error: unknown, options: EmulatorOptions): LocalStoreDamagedError | undefined {
  if (options.dataDir === undefined || !isLevelDamage(error)) return undefined;
  return new LocalStoreDamagedError(resolve(options.dataDir), levelDetail(error), {
    cause: error,
  });
}
