import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  logOddsZ,
  mineDiscriminativePhrases,
  type MinerSample,
} from '../../lambdas/core/patterns/miner/log-odds.js';
import { textNgrams } from '../../lambdas/core/patterns/miner/ngrams.js';
import { PatternSchema } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';

const NOW = new Date('2026-01-16T14:30:00Z');
const config = DEFAULT_EVALUATION_CONFIG;
const context = { existing: [], iteration: 5, now: NOW };

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILLER = [
  'invoice',
  'export',
  'report',
  'button',
  'screen',
  'customer',
  'ledger',
  'button',
  'page',
  'filter',
  'search',
  'account',
  'balance',
  'column',
  'record',
  'upload',
  'billing',
  'table',
  'widget',
  'panel',
];

/**
 * A corpus of `perGroup` high (4.5), `perGroup` low (1.5) and 4 middle (3) artefacts of
 * filler words. `audit trail` is planted in `plantedHigh` high ones and no low one,
 * `kitchen sink` in `plantedLow` low ones and no high one, `dashboard` in every artefact.
 */
function corpus(
  options: { seed?: number; perGroup?: number; plantedHigh?: number; plantedLow?: number } = {},
): MinerSample[] {
  const { seed = 42, perGroup = 12, plantedHigh = perGroup, plantedLow = perGroup } = options;
  const random = seeded(seed);
  const filler = (): string =>
    Array.from({ length: 12 }, () => FILLER[Math.floor(random() * FILLER.length)]).join(' ');
  const samples: MinerSample[] = [];
  for (let i = 0; i < perGroup; i += 1) {
    samples.push({
      artefactId: `high_${i}`,
      judgeScore: 4.5,
      text: `${filler()}. dashboard. ${i < plantedHigh ? 'Keeps an audit trail.' : ''} ${filler()}`,
    });
    samples.push({
      artefactId: `low_${i}`,
      judgeScore: 1.5,
      text: `${filler()}. dashboard. ${i < plantedLow ? 'A kitchen sink.' : ''} ${filler()}`,
    });
  }
  for (let i = 0; i < 4; i += 1)
    samples.push({ artefactId: `mid_${i}`, judgeScore: 3, text: `${filler()}. dashboard.` });
  return samples;
}

describe('Function: textNgrams', () => {
  it('keeps n-grams within single spaces and without function words at either end', () => {
    // Act
    const ngrams = textNgrams('I am frustrated when the export fails.\nExport to CSV', 3);

    // Assess
    expect([...ngrams].sort()).toEqual([
      'csv',
      'export',
      'export fails',
      'export to csv',
      'fails',
      'frustrated',
    ]);
  });

  it('never joins words across punctuation, a line break or a double space', () => {
    expect(textNgrams('audit, trail', 2).has('audit trail')).toBe(false);
    expect(textNgrams('audit\ntrail', 2).has('audit trail')).toBe(false);
    expect(textNgrams('audit  trail', 2).has('audit trail')).toBe(false);
    expect(textNgrams('Audit trail', 2).has('audit trail')).toBe(true);
  });

  it('drops one-character and digit-only words at the ends', () => {
    expect([...textNgrams('x 2026 report', 2)]).toEqual(['report']);
  });
});

describe('Function: logOddsZ', () => {
  it('computes the informative-prior log-odds of presence and its z-score', () => {
    // Prepare: α_w = 0.1 × 12 = 1.2, α_0 = 0.1 × 28 = 2.8
    const counts = {
      high: 12,
      low: 0,
      background: 12,
      highSamples: 12,
      lowSamples: 12,
      backgroundSamples: 28,
    };

    // Act
    const { delta, z } = logOddsZ(counts, 0.1);

    // Assess: δ = ln(13.2 / 1.6) − ln(1.2 / 13.6); σ² = 1/13.2 + 1/1.6 + 1/1.2 + 1/13.6
    expect(delta).toBeCloseTo(4.53794, 4);
    expect(z).toBeCloseTo(3.57906, 4);
  });

  it('is not finite for a phrase in every sample (it separates nothing)', () => {
    const everywhere = logOddsZ(
      { high: 5, low: 5, background: 12, highSamples: 5, lowSamples: 5, backgroundSamples: 12 },
      0.1,
    );
    expect(Number.isFinite(everywhere.z)).toBe(false);
  });

  it('is antisymmetric in the two groups, and zero for equal rates', () => {
    const base = { background: 10, highSamples: 12, lowSamples: 12, backgroundSamples: 28 };
    const forward = logOddsZ({ ...base, high: 8, low: 2 }, 0.1).z;
    const backward = logOddsZ({ ...base, high: 2, low: 8 }, 0.1).z;
    expect(backward).toBeCloseTo(-forward, 12);
    expect(logOddsZ({ ...base, high: 5, low: 5 }, 0.1).z).toBeCloseTo(0, 12);
  });
});

describe('Function: mineDiscriminativePhrases', () => {
  it('finds the planted phrases with the right sign, and not the balanced one', () => {
    // Act
    const result = mineDiscriminativePhrases(corpus(), config, context);

    // Assess
    const byPhrase = new Map(result.phrases.map((mined) => [mined.phrase, mined]));
    expect([...byPhrase.keys()].sort()).toEqual(['audit trail', 'kitchen sink']);
    const good = byPhrase.get('audit trail')!;
    const bad = byPhrase.get('kitchen sink')!;
    expect(good).toMatchObject({ type: 'good', highDocs: 12, lowDocs: 0, highSamples: 12 });
    expect(good.z).toBeGreaterThan(1.96);
    expect(bad).toMatchObject({ type: 'bad', highDocs: 0, lowDocs: 12, lowSamples: 12 });
    expect(bad.z).toBeLessThan(-1.96);
    // Strongest |z| first.
    const strengths = result.phrases.map((mined) => Math.abs(mined.z));
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
    const all = [...result.phrases.map((m) => m.phrase), ...result.skipped.map((s) => s.phrase)];
    expect(all).not.toContain('dashboard');
  });

  it('does not find a phrase every high and low artefact holds, however long the high ones are', () => {
    // Prepare: "ledger entries" in all 24 high and low artefacts (not the middle ones);
    // the high artefacts are three times as long
    const samples = corpus().map((sample) =>
      sample.artefactId.startsWith('mid')
        ? sample
        : {
            ...sample,
            text: `${sample.text} Ledger entries. ${sample.judgeScore > 3 ? `${sample.text} ${sample.text}` : ''}`,
          },
    );

    // Act
    const result = mineDiscriminativePhrases(
      samples,
      resolveEvaluationConfig({ miner: { zThreshold: 0.5 } }),
      context,
    );

    // Assess
    expect(result.phrases.map((mined) => mined.phrase)).not.toContain('ledger entries');
    expect(result.phrases.map((mined) => mined.phrase)).toContain('audit trail');
  });

  it('skips sub-phrases and phrases found in the same artefacts as a kept phrase', () => {
    // Act: "Keeps an audit trail." also yields "audit", "trail", "keeps", "keeps an audit"
    const result = mineDiscriminativePhrases(corpus(), config, context);

    // Assess
    const sameSignal = (phrase: string) =>
      expect.objectContaining({ phrase, reason: expect.stringContaining('same signal') });
    expect(result.skipped).toEqual(
      expect.arrayContaining(
        ['audit', 'trail', 'keeps', 'keeps an audit', 'kitchen', 'sink'].map(sameSignal),
      ),
    );
  });

  it('proposes provisional patterns: a phrase for a multi-word n-gram, a keyword for one word', () => {
    // Act
    const result = mineDiscriminativePhrases(corpus(), config, context);

    // Assess
    const good = result.patterns.find((pattern) => pattern.type === 'good');
    const bad = result.patterns.find((pattern) => pattern.type === 'bad');
    expect(PatternSchema.parse(good)).toEqual(good);
    expect(good).toMatchObject({
      type: 'good',
      phrases: ['audit trail'],
      keywords: [],
      source: 'log_odds_miner',
      status: 'provisional',
      weight: config.proposals.initialWeight,
      learnedIteration: 5,
      discoveredAt: '2026-01-16T14:30:00.000Z',
      appliesTo: ['document:user_story'],
    });
    expect(good!.id).toMatch(/^p_audit_trail_[0-9a-f]{8}$/);
    expect(good!.description).toContain('log-odds z = +');
    expect(good!.description).toContain('in 12 of 12 high-scored');
    expect(bad).toMatchObject({ type: 'bad', phrases: ['kitchen sink'] });
    expect(bad!.description).toContain('0 of 12 high-scored');
  });

  it('keeps a phrase exactly at the z threshold and drops it just above', () => {
    // Prepare
    const samples = corpus({ plantedHigh: 9 });
    const z = mineDiscriminativePhrases(samples, config, context).phrases.find(
      (mined) => mined.phrase === 'audit trail',
    )!.z;
    const found = (threshold: number) =>
      mineDiscriminativePhrases(
        samples,
        resolveEvaluationConfig({ miner: { zThreshold: threshold } }),
        context,
      )
        .phrases.map((mined) => mined.phrase)
        .includes('audit trail');

    // Act / Assess
    expect(found(z - 1e-6)).toBe(true);
    expect(found(z)).toBe(true);
    expect(found(z + 1e-6)).toBe(false);
  });

  it('requires the support on the phrase’s own side, at the boundary', () => {
    // Prepare: planted in 7 high artefacts; any |z| passes
    const samples = corpus({ plantedHigh: 7 });
    const found = (minSupport: number) =>
      mineDiscriminativePhrases(
        samples,
        resolveEvaluationConfig({ miner: { zThreshold: 0, minSupport: minSupport } }),
        context,
      )
        .phrases.map((mined) => mined.phrase)
        .includes('audit trail');

    // Act / Assess
    expect(found(6)).toBe(true);
    expect(found(7)).toBe(true);
    expect(found(8)).toBe(false);
  });

  it('does not find a planted phrase too rare to be significant', () => {
    const result = mineDiscriminativePhrases(corpus({ plantedHigh: 3 }), config, context);
    expect(result.phrases.map((mined) => mined.phrase)).not.toContain('audit trail');
  });

  it('gives the same result whatever the order of the samples', () => {
    // Prepare
    const samples = corpus();
    const random = seeded(7);
    const shuffled = samples
      .map((sample) => ({ sample, key: random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ sample }) => sample);

    // Act / Assess
    expect(shuffled).not.toEqual(samples);
    expect(mineDiscriminativePhrases(shuffled, config, context)).toEqual(
      mineDiscriminativePhrases(samples, config, context),
    );
  });

  it('skips a phrase a live pattern already fires on, and one a rejected pattern holds', () => {
    // Prepare
    const existing = [
      makePattern({ id: 'p_audit', keywords: ['Audit'], status: 'active' }),
      makePattern({
        id: 'p_sink',
        type: 'bad',
        phrases: ['kitchen sink'],
        status: 'rejected',
      }),
    ];

    // Act
    const result = mineDiscriminativePhrases(corpus(), config, { ...context, existing });

    // Assess
    expect(result.patterns).toEqual([]);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        {
          phrase: 'audit trail',
          z: expect.any(Number),
          reason: expect.stringContaining('covered by p_audit'),
        },
        { phrase: 'kitchen sink', z: expect.any(Number), reason: 'duplicates p_sink (rejected)' },
      ]),
    );
  });

  it('does not count a pattern of another target as covering', () => {
    const existing = [makePattern({ id: 'p_audit', keywords: ['audit'], appliesTo: ['change'] })];
    const result = mineDiscriminativePhrases(corpus(), config, { ...context, existing });
    expect(result.phrases.map((mined) => mined.phrase)).toContain('audit trail');
  });

  it('splits high and low at the configured scores, inclusive', () => {
    // Prepare: at 4 and 2 exactly, then just inside the middle band
    const samples = corpus().map((sample) => ({
      ...sample,
      judgeScore: sample.judgeScore === 4.5 ? 4 : sample.judgeScore === 1.5 ? 2 : 3,
    }));
    const nudged = samples.map((sample) => ({
      ...sample,
      judgeScore:
        sample.judgeScore === 4 ? 3.99 : sample.judgeScore === 2 ? 2.01 : sample.judgeScore,
    }));

    // Act
    const atBounds = mineDiscriminativePhrases(samples, config, context);
    const inside = mineDiscriminativePhrases(nudged, config, context);

    // Assess
    expect([atBounds.highSamples, atBounds.lowSamples]).toEqual([12, 12]);
    expect(atBounds.phrases).toHaveLength(2);
    expect([inside.highSamples, inside.lowSamples]).toEqual([0, 0]);
    expect(inside.patterns).toEqual([]);
  });
});
