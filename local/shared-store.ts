/**
 * A client's side of the store daemon (store-daemon.ts): connects to the daemon serving the
 * data dir, starting one when none runs, and holds a lease on it until released. Two
 * processes starting at once both try; LevelDB lets one daemon own the store, and the
 * other process connects to it.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { RalphError } from '../lambdas/core/errors.js';
import { processAlive } from './pid-file.js';
import { LocalStoreDamagedError } from './store-errors.js';
import { moduleEntry } from './module-entry.js';
import {
  STACK_FILE,
  StackFileSchema,
  type DaemonAnnouncement,
  type StackFile,
} from './store-daemon-protocol.js';

export interface SharedStore {
  stack: StackFile;
  /** Lets go of the lease; the daemon stops once no process holds one. */
  release(): void;
}

export interface SharedStoreOptions {
  /** How long the daemon outlives its last client (the next command reuses it). @default 3000 */
  idleMs?: number;
  /** How long to keep trying to reach or start a daemon. @default 30000 */
  timeoutMs?: number;
  /** Told when the daemon goes away while the lease is held (the store is gone). */
  onLost?: (stack: StackFile) => void;
}

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * @example
 * const store = await openSharedStore('.ralph');
 * // ... store.stack.dynamoEndpoint
 * store.release();
 */
export async function openSharedStore(
  dataDir: string,
  options: SharedStoreOptions = {},
): Promise<SharedStore> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastProblem = 'no store daemon answered';
  let unanswered = 0;
  for (let attempt = 0; Date.now() < deadline; attempt += 1) {
    const found = await readStackFile(dataDir);
    // A daemon that is alive but does not answer is starting or stopping; after a few tries
    // (its pid may belong to another program now) a new daemon is started, which LevelDB's
    // lock refuses while the old one still owns the store.
    const stack =
      found && processAlive(found.pid) && unanswered < 3
        ? found
        : await startDaemon(dataDir, options);
    if ('problem' in stack) {
      lastProblem = stack.problem;
    } else {
      const lease = await connectLease(stack.leasePort);
      if (lease) return holding(stack, lease, options);
      unanswered += 1;
      lastProblem = `the store daemon (pid ${stack.pid}) did not answer on port ${stack.leasePort}`;
    }
    await sleep(Math.min(50 * 2 ** attempt, 1_000));
  }
  throw new RalphError(`could not open the local store in ${dataDir}: ${lastProblem}`, {
    code: 'LOCAL_STORE_UNAVAILABLE',
  });
}

function holding(stack: StackFile, lease: Socket, options: SharedStoreOptions): SharedStore {
  let released = false;
  lease.on('close', () => {
    if (!released) options.onLost?.(stack);
  });
  // The lease alone must not keep this process alive.
  lease.unref();
  return {
    stack,
    release: () => {
      released = true;
      lease.destroy();
    },
  };
}

async function readStackFile(dataDir: string): Promise<StackFile | undefined> {
  try {
    const parsed = StackFileSchema.safeParse(
      JSON.parse(await readFile(join(dataDir, STACK_FILE), 'utf8')),
    );
    return parsed.success && parsed.data.dataDir === resolve(dataDir) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function connectLease(port: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: CONNECT_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', () => resolve(undefined));
  });
}

/**
 * Starts a daemon for the data dir, detached (its own process group: Ctrl-C in the
 * terminal reaches the ralph process, which lets go of its lease, not the store), and
 * waits for its announcement. Its stderr goes to `<dataDir>/store.log`.
 */
async function startDaemon(
  dataDir: string,
  options: SharedStoreOptions,
): Promise<StackFile | { problem: string }> {
  const log = openSync(join(dataDir, 'store.log'), 'a');
  const child = spawn(
    process.execPath,
    DAEMON.nodeArguments(dataDir, String(options.idleMs ?? 3_000)),
    { detached: true, stdio: ['ignore', 'pipe', log] },
  );
  closeSync(log);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`it could not start: ${error.message}`));
    child.once('exit', (code) => resolve(`it exited (code ${code}) before it was ready`));
  });
  const lines = createInterface({ input: child.stdout! });
  const announced = new Promise<string | undefined>((resolve) => {
    lines.once('line', resolve);
    lines.once('close', () => resolve(undefined));
  });
  const first = (await Promise.race([announced, exited])) ?? (await exited);
  lines.close();
  child.stdout?.destroy();
  // Announced: the daemon lives on by itself (this process must not wait for it).
  child.unref();
  if (!first.startsWith('{')) return { problem: first };
  let message: DaemonAnnouncement;
  try {
    message = JSON.parse(first) as DaemonAnnouncement;
  } catch {
    return { problem: `the store daemon said: ${first}` };
  }
  // Another daemon is starting or serving this data dir: connect to it instead.
  if (message.kind === 'ready') return message.stack;
  if (message.code === 'LOCAL_STORE_IN_USE') return { problem: message.message };
  if (message.code === 'LOCAL_STORE_DAMAGED')
    throw new LocalStoreDamagedError(resolve(dataDir), message.detail ?? message.message);
  throw new RalphError(`the local store in ${dataDir} could not start: ${message.message}`, {
    ...(message.code === undefined ? {} : { code: message.code }),
  });
}

/** The daemon's module: its compiled file, or its source under tsx (module-entry.ts). */
const DAEMON = moduleEntry('./store-daemon.ts', import.meta.url);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
