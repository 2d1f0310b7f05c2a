/**
 * Reads a change artefact back out of the judge prompt that
 * `lambdas/core/evaluation/judge/prompt.ts` built: the story's acceptance criteria, the gate
 * results, the files changed and the diff, each from its section (`CHANGE_SECTIONS`).
 */
import { CHANGE_SECTIONS } from '../../lambdas/core/judge/prompt.js';
import { parseJsonOr } from './parse-json.js';
import type { OfflineChange } from './change-rubric.js';
import { readFence, sectionAfter } from './prompt-sections.js';

/**
 * The change shown in `text` (the prompt after its artefact line).
 *
 * @example
 * readChange(prompt.slice(artefactLineEnd)).filesChanged; // ['src/export.ts']
 */

export function readChange(text: string): OfflineChange {
  const storyBlock = readFence(sectionAfter(text, CHANGE_SECTIONS.story));
  const story = parseJsonOr(storyBlock?.body ?? '', undefined) as
    { acceptanceCriteria?: unknown } | undefined;
  const gatesBlock = readFence(
    sectionAfter(text, CHANGE_SECTIONS.gates).split(`\n${CHANGE_SECTIONS.files}`)[0] ?? '',
  );
  const gates = parseJsonOr(gatesBlock?.body ?? '[]', undefined);
  const diffBlock = readFence(sectionAfter(text, CHANGE_SECTIONS.diff));
  return {
    acceptanceCriteria: Array.isArray(story?.acceptanceCriteria)
      ? story.acceptanceCriteria.filter((ac): ac is string => typeof ac === 'string')
      : [],
    gates: Array.isArray(gates) ? (gates as OfflineChange['gates']) : [],
    filesChanged: filesChangedIn(text),
    diff: diffBlock?.body ?? '',
  };
}

/** The `- path` lines right under the files-changed heading. */
function filesChangedIn(text: string): string[] {
  const filesChanged: string[] = [];
  for (const line of sectionAfter(text, CHANGE_SECTIONS.files).split('\n').slice(1)) {
    if (!line.startsWith('- ')) break;
    filesChanged.push(line.slice(2));
  }
  return filesChanged;
}
