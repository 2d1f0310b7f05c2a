/**
 * Every `archive.everyIterations` iterations, and whenever progress.txt has grown past
 * `archive.maxProgressBytes`, the progress entries the prompt no longer shows move to S3
 * (`progress-archive/{n}.txt`); the Codebase Patterns section and the recent entries
 * stay. Only trimmed once the archive is stored: nothing is lost.
 */
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { archiveProgress, progressArchiveReason } from '../../lambdas/core/ralph/progress-log.js';
import { RECENT_ENTRY_COUNT } from '../../lambdas/core/prompts/iteration-prompt.js';
import type { Written } from './artefacts.js';
import type { Iteration } from './iteration.js';

/** progress.txt as it is to be committed, and the archive written, if any. Never rejects. */
export async function archiveOldProgress(
  it: Iteration,
  text: string,
): Promise<{ text: string; written: Written }> {
  const unchanged = { text, written: {} };
  const reason = progressArchiveReason(
    { iteration: it.record.iteration, bytes: Buffer.byteLength(text) },
    it.run.config.control.archive,
  );
  if (!reason) return unchanged;
  const { kept, archived, moved } = archiveProgress(text, RECENT_ENTRY_COUNT);
  if (moved === 0) return unchanged;
  const key = artefactKeys.progressArchive(it.run.runId, it.record.iteration);
  try {
    await it.deps.artefacts.put(key, archived, 'text/plain');
  } catch (error) {
    it.log('progress-archive-failed', { error: (error as Error).message });
    return unchanged;
  }
  it.log('progress-archived', { entries: moved, key, reason });
  return { text: kept, written: { 'progress-archive': key } };
}
