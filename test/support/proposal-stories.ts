/**
 * What the proposal tests share: two current patterns, and sixteen user stories (eight the
 * judge liked, eight it did not) with both modes' verdicts.
 */
import { pairResults, type ArtefactGap } from '../../lambdas/core/gap/pairing.js';
import type { Artefact, StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import {
  makeCheapResult,
  makeJudgedResult,
  makePattern,
  makeStory,
  storyArtefact,
} from './evaluation.js';

/**
 * Eight stories the judge liked (an audit trail, a named pain) and eight it did not (a
 * kitchen sink of vague fixes); the cheap mode scores each 3, and `cheapOf` overrides the
 * cheap score per artefact id so that the gaps differ.
 */
export function proposalFixture(cheapOf: Record<string, number> = {}): {
  artefacts: Artefact[];
  pairs: ArtefactGap[];
} {
  const stories = [
    ...Array.from({ length: 8 }, (_, i) =>
      makeStory({
        id: `high_${i}`,
        title: `Export ledger report ${i}`,
        description: `As an accountant I am frustrated when totals drift, so that month close slips. Keeps an audit trail of every export ${i}.`,
        technical_area: null,
      }),
    ),
    ...Array.from({ length: 8 }, (_, i) =>
      makeStory({
        id: `low_${i}`,
        title: `Improve things ${i}`,
        description: `Make it nicer somehow, a kitchen sink of fixes ${i}.`,
        acceptance_criteria: ['Works properly'],
        technical_area: null,
      }),
    ),
  ];
  return pairedFixture(stories, (id) => (id.startsWith('high') ? 4.5 : 1.5), cheapOf);
}

/**
 * The stories as artefacts, paired: the judge scores each `judgeOf(id)` (with the offline
 * judge's reasons), the cheap mode 3 unless `cheapOf` says otherwise.
 */
export function pairedFixture(
  stories: readonly StoryDocument[],
  judgeOf: (id: string) => number,
  cheapOf: Record<string, number> = {},
): { artefacts: Artefact[]; pairs: ArtefactGap[] } {
  const artefacts = stories.map(storyArtefact);
  const judged = stories.map((story) => {
    const answer = judgeStoryOffline(story);
    return makeJudgedResult({ artefactId: story.id, ...answer, gestalt: judgeOf(story.id) });
  });
  const cheap = stories.map((story) =>
    makeCheapResult({ artefactId: story.id, gestalt: cheapOf[story.id] ?? 3 }),
  );
  return { artefacts, pairs: pairResults(cheap, judged).pairs };
}

/** A good pattern on a phrase, and a bad one on a keyword: a current pattern set. */
export const USER_CAN_PATTERN = makePattern({
  id: 'p_user_can',
  phrases: ['user can'],
  description: 'States what the user can do',
});
export const VAGUE_PATTERN = makePattern({
  id: 'p_vague',
  type: 'bad',
  keywords: ['vague'],
  weight: 1.5,
});
