import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseOrThrow } from '../../lambdas/core/shared/validation.js';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';
import {
  DEFAULT_EVALUATION_CONFIG,
  EvaluationConfigSchema,
  resolveEvaluationConfig,
  type EvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  FLAT_EVALUATION_FIELDS,
  isFlatEvaluationConfig,
  liftFlatEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config-flat.js';
import { makeRun } from '../support/records.js';

/** An `evaluation` config exactly as runs stored it before it had sections. */
async function flatFixture(): Promise<Record<string, unknown>> {
  const url = new URL('../fixtures/evaluation-config-flat.json', import.meta.url);
  return JSON.parse(await readFile(url, 'utf8')) as Record<string, unknown>;
}

/** The value at a section's field. */
function at(config: EvaluationConfig, section: string, key: string): unknown {
  return (config as unknown as Record<string, Record<string, unknown>>)[section]?.[key];
}

describe('Function: resolveEvaluationConfig', () => {
  it("defaults every threshold to the design document's value, by section", () => {
    // Act
    const config = resolveEvaluationConfig();

    // Assess
    expect(config).toMatchObject({
      enabled: false,
      stopOnConvergence: false,
      convergence: {
        cheapThreshold: 4,
        gapThreshold: 0.5,
        stableIterations: 2,
        maxPatternCountChange: 10,
        minIterations: 2,
        minSpearman: 0.6,
        minQwk: 0.6,
        minAgreementArtefacts: 5,
      },
      judge: { maxTries: 3, unreliableFailureRate: 0.2, reruns: 3, concurrency: 4 },
      patterns: {
        validateAfterTests: 10,
        validateMinAccuracy: 0.7,
        rejectAfterTests: 5,
        rejectMaxAccuracy: 0.3,
      },
      regression: { gapIncrease: 0.2, cheapDrop: 0.3, agreementDrop: 0.2 },
      divergence: { risingGapIterations: 3, plateauRange: 0.05, patternExplosionFactor: 1.5 },
      history: { maxEntries: 50 },
      coverage: { target: 0.8 },
      recovery: { raisedValidationAccuracy: 0.8, pruneMaxWeight: 0.3 },
      proposals: { gapThreshold: 0.5, maxNewPatterns: 5 },
      miner: { zThreshold: 1.96, minSupport: 3 },
    });
    expect(config).not.toHaveProperty('suite');
    expect(config).not.toHaveProperty('judgeChanges');
    expect(DEFAULT_EVALUATION_CONFIG).toEqual(config);
  });

  it('overrides single values of a section and keeps the rest of it', () => {
    // Act
    const config = resolveEvaluationConfig({
      convergence: { cheapThreshold: 3.5 },
      patterns: { dedupeJaccardThreshold: 0.9 },
    });

    // Assess
    expect(config.convergence).toEqual({
      ...DEFAULT_EVALUATION_CONFIG.convergence,
      cheapThreshold: 3.5,
    });
    expect(config.patterns.dedupeJaccardThreshold).toBe(0.9);
    expect(config.regression.agreementDrop).toBe(0.2);
  });

  it('refuses values out of range', () => {
    expect(() => resolveEvaluationConfig({ patterns: { dedupeJaccardThreshold: 1.5 } })).toThrow();
    expect(EvaluationConfigSchema.safeParse({ patterns: { weightLearningRate: -1 } }).success).toBe(
      false,
    );
  });

  it('refuses unknown keys, at the top and inside a section, naming the nearest known one', () => {
    // Act
    const parse = () =>
      parseOrThrow(
        RunConfigSchema,
        { evaluation: { enabled: true, unknownOption: 1, judge: { rerun: 5 } } },
        'ralph.config.json',
      );

    // Assess
    expect(parse).toThrow(
      expect.objectContaining({
        issues: [
          'evaluation.judge.rerun: unknown key — did you mean reruns?',
          'evaluation.unknownOption: unknown key',
        ],
      }),
    );
  });

  it('takes the agreement rules of convergence, refusing bad ones by name', () => {
    // Act
    const config = resolveEvaluationConfig({
      convergence: { minSpearman: 0.7, minQwk: 0.5, minAgreementArtefacts: 8 },
    });
    const parse = (convergence: Record<string, unknown>) =>
      parseOrThrow(RunConfigSchema, { evaluation: { convergence } }, 'ralph.config.json');

    // Assess
    expect(config.convergence).toMatchObject({
      minSpearman: 0.7,
      minQwk: 0.5,
      minAgreementArtefacts: 8,
      cheapThreshold: 4,
    });
    expect(() => parse({ minSpearmann: 0.7 })).toThrow(
      expect.objectContaining({
        issues: ['evaluation.convergence.minSpearmann: unknown key — did you mean minSpearman?'],
      }),
    );
    expect(() => parse({ minQWK: 0.7 })).toThrow(
      expect.objectContaining({
        issues: ['evaluation.convergence.minQWK: unknown key — did you mean minQwk?'],
      }),
    );
    expect(() => parse({ minSpearman: 1.5 })).toThrow(/evaluation\.convergence\.minSpearman/);
    expect(() => parse({ minAgreementArtefacts: 1 })).toThrow(
      /evaluation\.convergence\.minAgreementArtefacts/,
    );
  });

  it('reads its own output unchanged', () => {
    // Prepare
    const config = resolveEvaluationConfig({ enabled: true, miner: { maxNgram: 2 } });

    // Act & Assess
    expect(resolveEvaluationConfig(config)).toEqual(config);
  });
});

describe('The flat evaluation config of older runs', () => {
  it('is lifted into its sections, every value in its place', async () => {
    // Prepare: every one of the 51 flat keys, as an older run stored them
    const flat = await flatFixture();
    expect(isFlatEvaluationConfig(flat)).toBe(true);

    // Act
    const config = resolveEvaluationConfig(flat);

    // Assess
    for (const [key, [section, field]] of FLAT_EVALUATION_FIELDS)
      expect(at(config, section, field), `${key} → ${section}.${field}`).toBe(flat[key]);
    expect(config).toMatchObject({
      enabled: true,
      judgeChanges: false,
      stopOnConvergence: true,
      suite: { command: 'tsx eval/write-stories.ts', timeoutSeconds: 60 },
      convergence: { cheapThreshold: 3.5 },
      judge: { reruns: 5, concurrency: 2 },
      patterns: { validateAfterTests: 3 },
      proposals: { maxPerIteration: 1 },
      miner: { zThreshold: 2.5 },
      recovery: { pruneMaxWeight: 0.25 },
      history: { maxEntries: 20 },
    });
    expect(Object.keys(flat).filter((key) => FLAT_EVALUATION_FIELDS.has(key))).toHaveLength(51);
  });

  it('reads in a stored run record (RunRecord.config) as in a config file', async () => {
    // Prepare
    const flat = await flatFixture();

    // Act
    const run = makeRun({ config: { evaluation: flat } });
    const file = RunConfigSchema.parse({ evaluation: flat });

    // Assess
    expect(run.config.evaluation).toEqual(resolveEvaluationConfig(flat));
    expect(file.evaluation).toEqual(run.config.evaluation);
    expect(run.config.evaluation.judge.reruns).toBe(5);
  });

  it('lets a section win over a flat key that says the same, and keeps other keys', () => {
    // Act
    const lifted = liftFlatEvaluationConfig({
      enabled: true,
      judgeReruns: 5,
      cheapThreshold: 3,
      convergence: { cheapThreshold: 3.5 },
    });

    // Assess
    expect(lifted).toEqual({
      enabled: true,
      judge: { reruns: 5 },
      convergence: { cheapThreshold: 3.5 },
    });
  });

  it('leaves the sectioned shape and anything else as it is', () => {
    const sectioned = { enabled: true, convergence: { cheapThreshold: 3.5 } };
    expect(isFlatEvaluationConfig(sectioned)).toBe(false);
    expect(liftFlatEvaluationConfig(sectioned)).toBe(sectioned);
    expect(liftFlatEvaluationConfig(undefined)).toBeUndefined();
    expect(liftFlatEvaluationConfig([1])).toEqual([1]);
  });
});
