/**
 * The offline judge (`local/offline-judge/judge.ts` with its story and change rubrics):
 * reading the judge prompt back and scoring the artefact with its own rules.
 */
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { judgeAnswerSchemaFor } from '../../lambdas/core/judge/answer.js';
import { USER_STORY_RUBRIC } from '../../lambdas/core/judge/rubrics.js';
import { judgeOffline } from '../../local/offline-judge/judge.js';
import { OFFLINE_JUDGE_LABEL } from '../../local/offline-judge/labels.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import { GOOD_STORY, storyArtefact } from '../support/evaluation.js';
import { changeOf, poorStory } from '../support/offline-judge.js';
import { asStoryDocument, ustaiStory } from '../support/ustai-stories.js';

describe('Function: judgeOffline', () => {
  it('reads a user story back from the judge prompt and scores it', () => {
    // Act
    const good = judgeOffline(buildJudgePrompt(storyArtefact(GOOD_STORY)).user);
    const poor = judgeOffline(buildJudgePrompt(storyArtefact(poorStory)).user);

    // Assess
    expect(judgeAnswerSchemaFor(USER_STORY_RUBRIC).parse(good)).toEqual(good);
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
    expect(answer.reasoning).toContain('QUS quality 5/5 (no QUS defect)');
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

  it('weighs the weaknesses it names, QUS defects with their evidence', () => {
    const answer = judgeStoryOffline(poorStory);
    expect(answer.weaknesses.join('\n')).toMatch(/unambiguous defect "better"/);
    expect(answer.weaknesses.join('\n')).toMatch(/well-formed defect "Make things better/);
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

describe('Function: judgeStoryOffline (QUS verdicts on human-labelled UStAI stories)', () => {
  const defectsOf = (text: string) => {
    const answer = judgeStoryOffline(asStoryDocument(ustaiStory(text)));
    const defects = Object.fromEntries(
      (answer.criteria ?? [])
        .filter((verdict) => verdict.verdict === 'defect')
        .map((verdict) => [verdict.criterion, verdict.evidence]),
    );
    return { answer, defects };
  };

  it('finds the conjunction the annotators found, quoting it', () => {
    // Prepare
    const text =
      'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.';

    // Act
    const { answer, defects } = defectsOf(text);

    // Assess
    expect(ustaiStory(text).atomic).toBe('conjunctions');
    expect(defects.atomic).toBe('AI and connected vehicles');
    expect(text).toContain(defects.atomic);
    // The means names its technology: a solution, not a problem.
    expect(defects['problem-oriented']).toBe('uses AI');
    expect(answer.reasoning).toContain('atomic defect "AI and connected vehicles"');
  });

  it('finds the brackets the annotators found, and with a conjunction holds the gestalt to 2.5', () => {
    // Prepare
    const text =
      'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.';

    // Act
    const { answer, defects } = defectsOf(text);

    // Assess
    expect(ustaiStory(text)).toMatchObject({ atomic: 'conjunctions', minimal: 'brackets' });
    expect(defects).toMatchObject({
      atomic: 'opportunities and revenue streams',
      minimal: '(AVs)',
    });
    expect(answer.gestalt).toBeLessThanOrEqual(2.5);
    expect(answer.reasoning).toMatch(/held to 2\.5 \(from \d\.\d\) by its QUS quality score/);
  });

  it('finds a second sentence not minimal, quoting the sentence that is not the story', () => {
    // Prepare
    const text =
      'As a healthcare administrator, I am concerned about the computational cost of diagnostic tools. I want a system that uses incremental learning to reduce processing time for heart disease prediction.';

    // Act
    const { defects } = defectsOf(text);

    // Assess
    expect(ustaiStory(text).minimal).not.toBe('minimal');
    expect(defects.minimal).toBe(
      'As a healthcare administrator, I am concerned about the computational cost of diagnostic tools.',
    );
    expect(defects['problem-oriented']).toBe('uses incremental learning');
    expect(defects).not.toHaveProperty('well-formed');
  });

  it('passes a clean Connextra story on every criterion and scores it 4 or more', () => {
    // Prepare
    const text =
      "As an endocrinologist, I want access to my patients' predicted blood glucose trends, so I can adjust their treatment plans proactively.";

    // Act
    const { answer, defects } = defectsOf(text);

    // Assess
    expect(ustaiStory(text).minimal).toBe('minimal');
    expect(defects).toEqual({});
    expect(answer.criteria?.map((verdict) => verdict.criterion)).toEqual([
      'well-formed',
      'atomic',
      'minimal',
      'conceptually-sound',
      'problem-oriented',
      'unambiguous',
      'full-sentence',
    ]);
    expect(answer.gestalt).toBeGreaterThanOrEqual(4);
    // A one-sentence story has no acceptance criteria, which costs it nothing.
    expect(answer.reasoning).not.toContain('acceptance criteria');
    expect(answer.reasoning.startsWith(OFFLINE_JUDGE_LABEL)).toBe(true);
  });

  it('spreads one-sentence stories over the scale as their defects add up', () => {
    const gestalts = [
      "As an endocrinologist, I want access to my patients' predicted blood glucose trends, so I can adjust their treatment plans proactively.",
      'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
      'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.',
    ].map((text) => defectsOf(text).answer.gestalt);
    expect(gestalts).toEqual([...gestalts].sort((a, b) => b - a));
    expect(gestalts[0]! - gestalts[2]!).toBeGreaterThanOrEqual(1.5);
  });
});
