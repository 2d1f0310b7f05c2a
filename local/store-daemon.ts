/**
 * The store daemon: serves one data dir's emulators (dynalite on LevelDB, which allows one
 * owner, and s3rver) to every ralph process on that data dir, so that runs in several
 * processes share one store and none of them loses it when another exits.
 *
 * Each client holds a TCP connection to the lease port for as long as it uses the store;
 * the kernel closes it when the client exits, however it exits. With no client left for
 * `idleMs`, the daemon removes `stack.json`, stops the emulators and exits: nothing stays
 * behind once the last ralph process is gone.
 *
 * Usage (started by shared-store.ts): store-daemon <dataDir> [idleMs]
 */
import { createServer, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeWhole } from '../lambdas/adapters/whole-file.js';
import { RalphError } from '../lambdas/core/errors.js';
import { startEmulators, type Emulators } from './emulators.js';
import {
  isLevelDamage,
  levelDetail,
  LocalStoreDamagedError,
  LocalStoreInUseError,
} from './store-errors.js';
import { claimPidFile, thisProcess } from './pid-file.js';
import {
  DAEMON_PID_FILE,
  STACK_FILE,
  type DaemonAnnouncement,
  type StackFile,
} from './store-daemon-protocol.js';

const LOOPBACK = '127.0.0.1';
/** How long a daemon nobody has connected to yet waits for its first client. */
const FIRST_CLIENT_MS = 30_000;

const [dataDir, idleArgument] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: store-daemon <dataDir> [idleMs]');
const idleMs = Number(idleArgument ?? 3_000);
const stackFile = join(dataDir, STACK_FILE);

const announce = (message: DaemonAnnouncement) => {
  announced = true;
  process.stdout.write(`${JSON.stringify(message)}\n`);
};
/** A LevelDB failure is the store's damage, said with the way out (store-errors.ts). */
const named = (error: unknown): unknown =>
  isLevelDamage(error)
    ? new LocalStoreDamagedError(resolve(dataDir), levelDetail(error), { cause: error })
    : error;
let announced = false;
const fail = (cause: unknown): never => {
  const error = named(cause);
  if (!announced)
    announce({
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof RalphError ? { code: error.code } : {}),
      ...(error instanceof LocalStoreDamagedError ? { detail: error.detail } : {}),
    });
  else
    process.stderr.write(
      `store daemon: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  process.exit(1);
};
// dynalite meets a damaged table file on its first request, in a callback that throws.
process.on('uncaughtException', fail);

// One daemon per data dir, decided before LevelDB is touched: two starting at once would
// both pass LevelDB's lock check, and the loser's dynalite throws where nothing catches it.
const pidFile = join(dataDir, DAEMON_PID_FILE);
const self = thisProcess('store', resolve(dataDir));
let owner = await claimPidFile(pidFile, self);
// A data dir copied while its daemon ran carries that daemon's pid file: it serves the
// original, not this copy.
if (owner && owner.dataDir !== self.dataDir) {
  await rm(pidFile, { force: true });
  owner = await claimPidFile(pidFile, self);
}
if (owner) fail(new LocalStoreInUseError(dataDir));
process.on('exit', () => {
  // Synchronous: the process is going; a later daemon takes a stale file over anyway.
  try {
    unlinkSync(join(dataDir, DAEMON_PID_FILE));
  } catch {
    // already gone
  }
});

const emulators: Emulators = await startEmulators({ dataDir }).catch(fail);

const clients = new Set<Socket>();
let idleTimer: NodeJS.Timeout | undefined;
let stopping = false;

const server = createServer((socket) => {
  if (stopping) return socket.destroy();
  clients.add(socket);
  clearTimeout(idleTimer);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clients.delete(socket);
    if (clients.size === 0) idleTimer = setTimeout(() => stop(), idleMs);
  });
  socket.resume();
});
await new Promise<void>((listening) => server.listen(0, LOOPBACK, listening));
const leasePort = (server.address() as { port: number }).port;

const stack: StackFile = {
  pid: process.pid,
  dataDir: resolve(dataDir),
  dynamoEndpoint: emulators.dynamoEndpoint,
  s3Endpoint: emulators.s3Endpoint,
  tableName: emulators.tableName,
  bucketName: emulators.bucketName,
  region: emulators.region,
  leasePort,
};
// Written whole: a client never reads half a file.
await writeWhole(stackFile, JSON.stringify(stack, null, 2));
announce({ kind: 'ready', stack });
idleTimer = setTimeout(() => stop(), FIRST_CLIENT_MS);

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(true));
// The terminal that started the first client may close; the daemon lives on its leases.
process.on('SIGHUP', () => undefined);

/** Stops once no client is left, or at once when told to (a signal). */
function stop(force = false): void {
  if (stopping || (clients.size > 0 && !force)) return;
  stopping = true;
  server.close();
  for (const client of clients) client.destroy();
  void rm(stackFile, { force: true })
    .then(() => emulators.stop())
    .catch((error: unknown) => process.stderr.write(`stopping the store: ${String(error)}\n`))
    .finally(() => process.exit(0));
}
