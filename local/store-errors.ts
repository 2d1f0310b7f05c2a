/**
 * What can be wrong with the local store under a data dir, in words that say how to go on:
 * another process holds it, or its LevelDB files cannot be read.
 */
import { join } from 'node:path';
import { RalphError } from '../lambdas/core/errors.js';

/** Another process (or another emulator in this one) holds the LevelDB lock of the data dir. */
export class LocalStoreInUseError extends RalphError {
  constructor(dir: string, options?: ErrorOptions) {
    super(`the local store in ${dir} is in use by another ralph process`, {
      ...options,
      code: 'LOCAL_STORE_IN_USE',
    });
    this.name = 'LocalStoreInUseError';
  }
}

/**
 * The DynamoDB emulator's LevelDB files under `<dataDir>/dynamodb` cannot be read (a
 * corrupted CURRENT, MANIFEST or table file; an I/O error). Says how to recover: LevelDB
 * cannot be repaired from here, but the directory can be moved aside.
 */
export class LocalStoreDamagedError extends RalphError {
  /** What LevelDB said. */
  readonly detail: string;

  constructor(dataDir: string, detail: string, options?: ErrorOptions) {
    const dynamoDir = join(dataDir, 'dynamodb');
    super(
      `the local store in ${dynamoDir} is damaged (${detail}): move it aside (\`mv ${dynamoDir} ${dynamoDir}.damaged\`) to start an empty one; the run history and learned patterns in it are lost, while the artefacts under ${join(dataDir, 's3')} and the branches and refs in your repositories stay`,
      { ...options, code: 'LOCAL_STORE_DAMAGED' },
    );
    this.name = 'LocalStoreDamagedError';
    this.detail = detail;
  }
}

/** LevelDB's error codes (abstract-level) for a store that is not merely locked. */
export function isLevelDamage(error: unknown): boolean {
  const code = levelCode(error);
  return code !== undefined && code.startsWith('LEVEL_') && code !== 'LEVEL_LOCKED';
}

/** The innermost LevelDB code: `Database failed to open` wraps the corruption in `cause`. */
function levelCode(error: unknown): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  const inner = cause === undefined ? undefined : levelCode(cause);
  return inner ?? (typeof code === 'string' ? code : undefined);
}

/** LevelDB quotes file contents in its messages: the detail is cut to one short line. */
const DETAIL_CHARS = 160;

/**
 * What LevelDB said, innermost first (`Corruption: not an sstable (bad magic number)`), on
 * one line.
 */
export function levelDetail(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: unknown };
  if (cause !== undefined && isLevelDamage(cause)) return levelDetail(cause);
  const text = (typeof message === 'string' ? message : String(error)).replace(/\s+/g, ' ');
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text;
}
