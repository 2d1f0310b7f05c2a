import { describe, expect, it } from 'vitest';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import {
  answerProblem,
  correctedExchange,
  describeModelError,
} from '../../lambdas/core/judge/ask.js';

const question = { role: 'user' as const, content: 'Score this.' };
const correction = (problem: string) => `Fix: ${problem}`;

describe('Function: answerProblem', () => {
  it('says when the answer was cut off at the token limit', () => {
    expect(answerProblem('not valid JSON', 'max_tokens', 1024)).toBe(
      'not valid JSON (the answer was cut off at 1024 tokens)',
    );
    expect(answerProblem('not valid JSON', 'end_turn', 1024)).toBe('not valid JSON');
    expect(answerProblem('not valid JSON', null, 1024)).toBe('not valid JSON');
  });
});

describe('Function: correctedExchange', () => {
  it('shows the model its answer and the correction', () => {
    expect(correctedExchange(question, '{"gestalt": 9}  \n', 'too big', correction)).toEqual([
      question,
      { role: 'assistant', content: '{"gestalt": 9}' },
      { role: 'user', content: 'Fix: too big' },
    ]);
  });

  it('asks again as before after an empty answer', () => {
    expect(correctedExchange(question, ' \n', 'the answer is empty', correction)).toEqual([
      question,
    ]);
  });
});

describe('Function: describeModelError', () => {
  it('tells an unavailable model from a refused request', () => {
    expect(describeModelError(new TransientError('overloaded'))).toBe(
      'model unavailable: overloaded',
    );
    expect(describeModelError(new RalphError('no such model', { code: 'MODEL_REFUSED' }))).toBe(
      'model refused the request (MODEL_REFUSED): no such model',
    );
  });
});
