/** The model double's default responder (`local/offline-judge/responder.ts`). */
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { offlineResponder } from '../../local/offline-judge/responder.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import { GOOD_STORY, storyArtefact } from '../support/evaluation.js';
import { proposalPrompt } from '../support/offline-judge.js';

describe('Function: offlineResponder', () => {
  it('answers the judge prompt, the proposal prompt, and admits anything else', () => {
    const judgePrompt = buildJudgePrompt(storyArtefact(GOOD_STORY)).user;
    expect(
      JSON.parse(
        offlineResponder({
          firstUserText: judgePrompt,
          lastUserText: 'Your answer could not be used',
        }),
      ),
    ).toMatchObject({
      gestalt: expect.any(Number),
    });
    const proposal = proposalPrompt(4.5, 3, judgeStoryOffline(GOOD_STORY).reasoning);
    expect(
      JSON.parse(offlineResponder({ firstUserText: proposal, lastUserText: proposal })),
    ).toHaveProperty('category');
    expect(offlineResponder({ firstUserText: 'hi', lastUserText: 'hi' })).toContain(
      'no language model here',
    );
  });
});
