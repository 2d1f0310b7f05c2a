import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';
import {
  HISTORY_EVENT_CAP,
  iterationEvents,
  iterationsThatFit,
  segmentLength,
} from '../../lambdas/core/schemas/execution-history.js';

const evaluated = (maxDocuments: number, iterationsPerSegment?: number) =>
  RunConfigSchema.parse({
    limits: iterationsPerSegment === undefined ? {} : { iterationsPerSegment },
    evaluation: { enabled: true, suite: { command: 'node eval.js', maxDocuments } },
  });

describe('Execution history budget', () => {
  it('counts 15 events per iteration without evaluation, 46 + 7 per artefact with it', () => {
    expect(iterationEvents(RunConfigSchema.parse({})).events).toBe(15);
    expect(iterationEvents(evaluated(200)).events).toBe(46 + 7 * 200);
    const changes = RunConfigSchema.parse({ evaluation: { enabled: true } });
    expect(iterationEvents(changes).events).toBe(46 + 7);
  });

  it('shortens the default segment to what fits, and never to nothing', () => {
    expect(segmentLength(RunConfigSchema.parse({}))).toBe(25);
    expect(segmentLength(evaluated(200))).toBe(iterationsThatFit(evaluated(200)));
    expect(segmentLength(evaluated(200)) * iterationEvents(evaluated(200)).events).toBeLessThan(
      HISTORY_EVENT_CAP * 0.8,
    );
  });

  it('refuses a configured segment length that cannot fit, with the arithmetic', () => {
    const result = RunConfigSchema.safeParse({
      limits: { iterationsPerSegment: 25 },
      evaluation: { enabled: true, suite: { command: 'node eval.js', maxDocuments: 200 } },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['limits', 'iterationsPerSegment'],
      message: expect.stringMatching(
        /^25 iterations × 1446 events \(46 \+ 7 × 200 artefacts judged\) = 36150 events, over the 20000 .* at most 13 fit/,
      ),
    });
    expect(evaluated(200, 13).limits.iterationsPerSegment).toBe(13);
  });
});
