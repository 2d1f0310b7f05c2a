import { describe, expect, it } from 'vitest';
import { parseJudgeAnswer } from '../../lambdas/core/judge/answer.js';
import { CHANGE_RUBRIC, USER_STORY_RUBRIC } from '../../lambdas/core/judge/rubrics.js';
import { ExpensiveModeResultSchema } from '../../lambdas/core/schemas/evaluation.js';
import { TEST_USAGE, qusVerdicts } from '../support/evaluation.js';

const valid = { gestalt: 4, reasoning: 'clear problem', strengths: ['ac'], weaknesses: [] };

describe('Function: parseJudgeAnswer', () => {
  it('accepts a bare JSON object', () => {
    // Act
    const parsed = parseJudgeAnswer(JSON.stringify(valid));

    // Assess
    expect(parsed).toEqual({ ok: true, answer: valid });
  });

  it('accepts a ```json fence, or a bare ``` fence, around the whole answer', () => {
    expect(parseJudgeAnswer('```json\n' + JSON.stringify(valid, null, 2) + '\n```')).toEqual({
      ok: true,
      answer: valid,
    });
    expect(parseJudgeAnswer('  ```\n' + JSON.stringify(valid) + '\n```\n')).toEqual({
      ok: true,
      answer: valid,
    });
  });

  it('accepts decimal scores at both ends of the scale', () => {
    expect(parseJudgeAnswer(JSON.stringify({ ...valid, gestalt: 1 })).ok).toBe(true);
    expect(parseJudgeAnswer(JSON.stringify({ ...valid, gestalt: 4.5 })).ok).toBe(true);
    expect(parseJudgeAnswer(JSON.stringify({ ...valid, gestalt: 5 })).ok).toBe(true);
  });

  it('refuses prose around the JSON, even fenced', () => {
    // Prepare
    const chatty = `Here is my evaluation:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``;

    // Act
    const parsed = parseJudgeAnswer(chatty);

    // Assess
    expect(parsed.ok).toBe(false);
    expect(parsed).toMatchObject({ problem: expect.stringContaining('not valid JSON') });
  });

  it('refuses text that is not JSON, and an empty answer', () => {
    expect(parseJudgeAnswer('{"gestalt": 4, "reasoning": "cut off')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(parseJudgeAnswer('   ')).toEqual({ ok: false, problem: 'the answer is empty' });
  });

  it('refuses JSON that is not an object', () => {
    expect(parseJudgeAnswer('[4]')).toEqual({
      ok: false,
      problem: 'the answer is JSON but not an object',
    });
    expect(parseJudgeAnswer('4')).toMatchObject({ ok: false });
  });

  it('refuses a gestalt outside 1–5, naming the field', () => {
    for (const gestalt of [0, 0.5, 5.5, 7]) {
      const parsed = parseJudgeAnswer(JSON.stringify({ ...valid, gestalt }));
      expect(parsed).toMatchObject({ ok: false, problem: expect.stringMatching(/^gestalt: /) });
    }
  });

  it('refuses missing fields and a gestalt given as a string', () => {
    expect(parseJudgeAnswer(JSON.stringify({ gestalt: 4 }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('reasoning'),
    });
    expect(parseJudgeAnswer(JSON.stringify({ ...valid, gestalt: '4' }))).toMatchObject({
      ok: false,
    });
    expect(parseJudgeAnswer(JSON.stringify({ ...valid, reasoning: '' }))).toMatchObject({
      ok: false,
    });
  });

  it('keeps the problem short', () => {
    const parsed = parseJudgeAnswer(`{"x": "${'y'.repeat(2_000)}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.length).toBeLessThanOrEqual(300);
  });
});

describe('Function: parseJudgeAnswer (the QUS verdicts of a user story)', () => {
  const story = {
    ...valid,
    criteria: qusVerdicts({ atomic: 'and reduce congestion', minimal: '(AVs)' }),
  };

  it('accepts a verdict on each QUS criterion, a defect with its evidence', () => {
    // Act
    const parsed = parseJudgeAnswer(JSON.stringify(story), USER_STORY_RUBRIC);

    // Assess
    expect(parsed).toEqual({ ok: true, answer: story });
    if (parsed.ok)
      expect(parsed.answer.criteria?.filter((verdict) => verdict.verdict === 'defect')).toEqual([
        { criterion: 'atomic', verdict: 'defect', evidence: 'and reduce congestion' },
        { criterion: 'minimal', verdict: 'defect', evidence: '(AVs)' },
      ]);
  });

  it('refuses an answer without the verdicts, or missing a criterion, naming it', () => {
    expect(parseJudgeAnswer(JSON.stringify(valid), USER_STORY_RUBRIC)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^criteria: /),
    });
    const withoutAtomic = {
      ...story,
      criteria: story.criteria.filter((verdict) => verdict.criterion !== 'atomic'),
    };
    expect(parseJudgeAnswer(JSON.stringify(withoutAtomic), USER_STORY_RUBRIC)).toEqual({
      ok: false,
      problem: 'criteria: no verdict on atomic',
    });
  });

  it('refuses an unknown criterion, one not asked, one answered twice, and a verdict other than pass or defect', () => {
    const answer = (extra: object) =>
      parseJudgeAnswer(
        JSON.stringify({ ...story, criteria: [...story.criteria, extra] }),
        USER_STORY_RUBRIC,
      );
    expect(answer({ criterion: 'estimable', verdict: 'pass', evidence: '' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^criteria\[7\]\.criterion: Invalid option/),
    });
    expect(answer({ criterion: 'unique', verdict: 'pass', evidence: '' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('unique is not asked here'),
    });
    expect(answer({ criterion: 'atomic', verdict: 'pass', evidence: '' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('atomic has more than one verdict'),
    });
    expect(
      parseJudgeAnswer(
        JSON.stringify({
          ...story,
          criteria: story.criteria.map((verdict) => ({ ...verdict, verdict: 'maybe' })),
        }),
        USER_STORY_RUBRIC,
      ),
    ).toMatchObject({ ok: false, problem: expect.stringMatching(/^criteria\[0\]\.verdict: /) });
  });

  it('refuses a defect that quotes no evidence', () => {
    const bare = { ...story, criteria: qusVerdicts({ unambiguous: '  ' }) };
    expect(parseJudgeAnswer(JSON.stringify(bare), USER_STORY_RUBRIC)).toEqual({
      ok: false,
      problem: 'criteria: the unambiguous defect quotes no evidence from the story',
    });
  });

  it('drops verdicts sent about a change, whose rubric has no QUS criteria', () => {
    expect(parseJudgeAnswer(JSON.stringify(story), CHANGE_RUBRIC)).toEqual({
      ok: true,
      answer: valid,
    });
  });

  it('still reads a verdict stored before the criteria existed, and one with them', () => {
    const stored = { status: 'ok', artefactId: 's1', ...valid, attempts: 1, usage: TEST_USAGE };
    expect(ExpensiveModeResultSchema.parse(stored)).toEqual(stored);
    expect(ExpensiveModeResultSchema.parse({ ...stored, criteria: story.criteria })).toMatchObject({
      criteria: story.criteria,
    });
  });
});
