/**
 * Which process runs which run, on this machine. A process claims a run before its first
 * execution starts here and lets go when its last one ends (or the process does): a lease
 * file under the data dir says the run is live, and a local repository's lock keeps a
 * second run out of its working tree. A run stored as running whose lease names no live
 * process was interrupted (`kill -9`, a crash): `ralph resume` may take it over.
 */
import { join } from 'node:path';
import { InvalidInputError, NotFoundError } from '../lambdas/core/errors.js';
import type { RunRequest } from '../lambdas/core/schemas/run-request.js';
import { readRunRequest } from '../lambdas/core/steps/init-run.js';
import type { ArtefactStore } from '../lambdas/ports.js';
import { claimPidFile, holderAlive, readPidFile, releasePidFile, thisProcess } from './pid-file.js';
import { lockRepository, RepositoryInUseError } from './repository-lock.js';

export interface RunClaims {
  /** Claims the run for this process (again: nothing); throws RepositoryInUseError. */
  claim(runId: string): Promise<void>;
  /** Lets go of a run this process claimed. */
  release(runId: string): Promise<void>;
  /** Whether some process (this one included) runs the run now. */
  isLive(runId: string): Promise<boolean>;
  /** Lets go of every claim (the stack closes). */
  releaseAll(): Promise<void>;
}

/**
 * Claims kept as lease files under `<dataDir>/leases/`, or only in this process for a store
 * in memory (no other process can see that store).
 */
export function runClaims(options: { dataDir?: string; artefacts: ArtefactStore }): RunClaims {
  const held = new Map<string, () => Promise<void>>();
  const { dataDir } = options;
  const leasePath = (runId: string) => join(dataDir ?? '', 'leases', `${runId}.json`);

  const claim = async (runId: string) => {
    if (held.has(runId)) return;
    const request = await requestOf(options.artefacts, runId);
    const holder = thisProcess(runId, dataDir);
    const releases: (() => Promise<void>)[] = [];
    try {
      if (request?.repo.kind === 'local')
        releases.push(await lockRepository(request.repo.path, holder));
      if (dataDir !== undefined) {
        const other = await claimPidFile(leasePath(runId), holder);
        if (other)
          throw new RepositoryInUseError(
            request?.repo.kind === 'local' ? request.repo.path : runId,
            other,
          );
        releases.push(() => releasePidFile(leasePath(runId), holder));
      }
    } catch (error) {
      await Promise.all(releases.map((release) => release()));
      throw error;
    }
    held.set(runId, async () => {
      await Promise.all(releases.map((release) => release()));
    });
  };

  const release = async (runId: string) => {
    const letGo = held.get(runId);
    held.delete(runId);
    await letGo?.();
  };

  return {
    claim,
    release,
    isLive: async (runId) => {
      if (held.has(runId)) return true;
      if (dataDir === undefined) return false;
      const holder = await readPidFile(leasePath(runId));
      return holder !== undefined && holderAlive(holder);
    },
    releaseAll: async () => {
      await Promise.all([...held.keys()].map(release));
    },
  };
}

/**
 * The run's request (where its repository is); undefined when none was stored, or one that
 * cannot be read (the run's own first step refuses it, with the reason, and records that).
 */
async function requestOf(artefacts: ArtefactStore, runId: string): Promise<RunRequest | undefined> {
  try {
    return await readRunRequest(artefacts, runId);
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof InvalidInputError) return undefined;
    throw error;
  }
}
