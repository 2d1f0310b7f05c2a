import { describe, expect, it } from 'vitest';
import { LazyModelClient } from '../../lambdas/adapters/lazy-model-client.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../../lambdas/ports.js';

const request: ModelRequest = {
  model: 'claude-sonnet-4-6',
  system: 'Answer in one word.',
  messages: [{ role: 'user', content: 'Capital of France?' }],
  maxTokens: 16,
  timeoutMs: 1_000,
};

/** A model double at the outer edge: answers with the text it was built with. */
function answering(text: string): ModelClient {
  return {
    complete: async (asked: ModelRequest): Promise<ModelResponse> => ({
      text,
      model: asked.model,
      stopReason: 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1 },
      attempts: 1,
    }),
  };
}

describe('Class: LazyModelClient', () => {
  it('connects on the first call, once, even for calls made side by side', async () => {
    // Prepare
    let connects = 0;
    const model = new LazyModelClient(async () => {
      connects += 1;
      return answering('Paris');
    });

    // Act
    const before = connects;
    const answers = await Promise.all([model.complete(request), model.complete(request)]);
    const third = await model.complete(request);

    // Assess
    expect(before).toBe(0);
    expect(connects).toBe(1);
    expect([...answers, third].map((answer) => answer.text)).toEqual(['Paris', 'Paris', 'Paris']);
  });

  it('does not keep a failed connect: the next call tries again', async () => {
    // Prepare
    let connects = 0;
    const model = new LazyModelClient(async () => {
      connects += 1;
      if (connects === 1) throw new Error('secret not readable yet');
      return answering('Paris');
    });

    // Act
    const first = model.complete(request);

    // Assess
    await expect(first).rejects.toThrow('secret not readable yet');
    await expect(model.complete(request)).resolves.toMatchObject({ text: 'Paris' });
    expect(connects).toBe(2);
  });
});
