/**
 * What the store daemon (store-daemon.ts) and its clients (shared-store.ts) agree on: the
 * `stack.json` it writes in the data dir, and the one line it prints when it has started.
 */
import { z } from 'zod';

export const STACK_FILE = 'stack.json';
/** The daemon's own pid file: one daemon per data dir. */
export const DAEMON_PID_FILE = 'store.pid';

/** Where the daemon's emulators listen, and the port a client holds its lease on. */
export const StackFileSchema = z.object({
  pid: z.number().int().positive(),
  /** The data dir the daemon serves: a copied data dir's stack.json names the original. */
  dataDir: z.string(),
  dynamoEndpoint: z.string(),
  s3Endpoint: z.string(),
  tableName: z.string(),
  bucketName: z.string(),
  region: z.string(),
  leasePort: z.number().int().positive(),
});
export type StackFile = z.infer<typeof StackFileSchema>;

/** The daemon's first (and only) line on stdout. */
export type DaemonAnnouncement =
  | { kind: 'ready'; stack: StackFile }
  | { kind: 'failed'; message: string; code?: string; detail?: string };
