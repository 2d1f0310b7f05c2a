/**
 * The offline judge (`local/offline-judge/judge.ts` with its story and change rubrics):
 * reading the judge prompt back and scoring the artefact with its own rules.
 */
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { JudgeAnswerSchema } from '../../lambdas/core/schemas/evaluation.js';
import { judgeOffline } from '../../local/offline-judge/judge.js';
import { OFFLINE_JUDGE_LABEL } from '../../local/offline-judge/labels.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import { GOOD_STORY, storyArtefact } from '../support/evaluation.js';
import { changeOf, poorStory } from '../support/offline-judge.js';

describe('Function: judgeOffline', () => {
  it('reads a user story back from the judge prompt and scores it', () => {
    // Act
    const good = judgeOffline(buildJudgePrompt(storyArtefact(GOOD_STORY)).user);
    const poor = judgeOffline(buildJudgePrompt(storyArtefact(poorStory)).user);

    // Assess
    expect(JudgeAnswerSchema.parse(good)).toEqual(good);
    expect(good?.gestalt).toBeGreaterThanOrEqual(4.5);
    expect(poor?.gestalt).toBeLessThanOrEqual(1.5);
    expect(good).toEqual(judgeStoryOffline(GOOD_STORY));
  });

  it('says it is not a model and shows its working', () => {
    const answer = judgeStoryOffline(GOOD_STORY);
    expect(answer.reasoning.startsWith(OFFLINE_JUDGE_LABEL)).toBe(true);
    expect(answer.reasoning).toContain('not a model');
    expect(answer.reasoning).toContain('clear user problem 5/5');
    expect(answer.reasoning).toContain('pain point "frustrated when"');
    expect(answer.strengths.length).toBeGreaterThan(0);
  });

  it('is deterministic', () => {
    expect(judgeStoryOffline(poorStory)).toEqual(judgeStoryOffline(poorStory));
  });

  it('credits a pain point that value phrases miss, which the cheap evaluator does not see', () => {
    // Prepare: no "user can"/"allows"/"enables" phrase, but a named user with a pain and an outcome.
    const story = {
      ...GOOD_STORY,
      description:
        'As a support agent I have to search three tools for one ticket, so that replies are slow.',
    };

    // Act
    const answer = judgeStoryOffline(story);

    // Assess
    expect(answer.reasoning).toContain('clear user problem 5/5');
    expect(answer.reasoning).toContain('pain point "have to search"');
  });

  it('weighs the weaknesses it names', () => {
    const answer = judgeStoryOffline(poorStory);
    expect(answer.weaknesses.join('\n')).toMatch(/vague wording .*"etc"/);
    expect(answer.weaknesses.join('\n')).toMatch(/title joins concerns with "and"/);
  });

  it('scores a change on the diff, the tests and the gates', () => {
    // Act
    const full = judgeOffline(buildJudgePrompt(changeOf()).user);
    const untested = judgeOffline(buildJudgePrompt(changeOf({ tests: false })).user);
    const red = judgeOffline(buildJudgePrompt(changeOf({ gatesPass: false })).user);
    const empty = judgeOffline(buildJudgePrompt(changeOf({ diff: '' })).user);

    // Assess
    expect(full?.gestalt).toBe(5);
    expect(full?.reasoning).toContain('2 of 2 criteria have their key terms in the added lines');
    expect(untested?.reasoning).toContain('tests 2/5');
    expect(red?.reasoning).toContain('blocking gate failed: "test"');
    expect(untested!.gestalt).toBeLessThan(full!.gestalt);
    expect(red!.gestalt).toBeLessThan(full!.gestalt);
    expect(empty?.gestalt).toBeLessThanOrEqual(2);
  });

  it('scores another document type by its substance', () => {
    const answer = judgeOffline(
      buildJudgePrompt({ kind: 'document', id: 'n1', documentType: 'release_note', content: '' })
        .user,
    );
    expect(answer?.gestalt).toBe(1);
    expect(answer?.reasoning).toContain('not a model');
  });

  it('returns undefined for a prompt that is not a judge prompt', () => {
    expect(judgeOffline('What is the capital of France?')).toBeUndefined();
  });
});
