import { describe, expect, it } from 'vitest';
import { parseJudgeAnswer } from '../../lambdas/core/judge/answer.js';

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
