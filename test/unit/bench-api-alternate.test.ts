import { describe, expect, it } from 'vitest';
import { alternately } from '../../bench/api/alternate.js';

describe('bench/api: alternately', () => {
  it('calls each sampler once per round, the first one alternating, and keeps their times apart', async () => {
    // Prepare
    const calls: string[] = [];
    const sampler = (name: string, ms: number) => async () => {
      calls.push(name);
      return ms;
    };

    // Act
    const [a, b] = await alternately(3, [sampler('a', 1), sampler('b', 2)]);

    // Assess
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(a).toEqual([1, 1, 1]);
    expect(b).toEqual([2, 2, 2]);
  });

  it('awaits each call before the next starts', async () => {
    // Prepare
    let inFlight = 0;
    let most = 0;
    const sampler = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return 0;
    };

    // Act
    await alternately(2, [sampler, sampler]);

    // Assess
    expect(most).toBe(1);
  });

  it('takes no sample for zero rounds', async () => {
    // Act
    const result = await alternately(0, [async () => 1, async () => 2]);

    // Assess
    expect(result).toEqual([[], []]);
  });
});
