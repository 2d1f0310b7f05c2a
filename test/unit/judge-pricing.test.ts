import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRICING,
  costUsd,
  normalizeModelId,
  priceOf,
  pricingFor,
} from '../../lambdas/core/judge/pricing.js';

describe('Function: normalizeModelId', () => {
  it('reduces snapshot, Bedrock and Vertex ids to the API alias', () => {
    expect(normalizeModelId('claude-haiku-4-5-20251001')).toBe('claude-haiku-4-5');
    expect(normalizeModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(
      'claude-sonnet-4-5',
    );
    expect(normalizeModelId('anthropic.claude-opus-4-1-20250805-v1:0')).toBe('claude-opus-4-1');
    expect(normalizeModelId('claude-opus-4-1@20250805')).toBe('claude-opus-4-1');
    expect(normalizeModelId('claude-opus-5-5[1m]')).toBe('claude-opus-5-5');
  });
});

describe('Function: priceOf', () => {
  it("uses the model's own entry", () => {
    expect(priceOf('claude-sonnet-4-6')).toMatchObject({
      inputPerMTok: 3,
      outputPerMTok: 15,
      source: 'model',
    });
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({
      inputPerMTok: 15,
      outputPerMTok: 75,
    });
  });

  it("prices an unknown member of a family at the family's rate", () => {
    expect(priceOf('claude-opus-9')).toMatchObject({ inputPerMTok: 5, source: 'family' });
    expect(priceOf('claude-haiku-5-5')).toMatchObject({ inputPerMTok: 1, source: 'family' });
  });

  it('falls back to the default for anything else', () => {
    expect(priceOf('offline-judge')).toMatchObject({
      ...DEFAULT_PRICING.default,
      source: 'default',
      normalizedModel: 'offline-judge',
    });
  });

  it('takes another table', () => {
    const table = {
      asOf: '2026-01-01',
      models: { mine: { inputPerMTok: 1, outputPerMTok: 2 } },
      families: [],
      default: { inputPerMTok: 9, outputPerMTok: 9 },
    };
    expect(priceOf('mine', table).outputPerMTok).toBe(2);
    expect(priceOf('other', table).inputPerMTok).toBe(9);
  });
});

describe('Function: costUsd', () => {
  it('prices input and output tokens per million', () => {
    // 2,000 × $3/M + 400 × $15/M = $0.006 + $0.006
    expect(costUsd('claude-sonnet-4-6', { inputTokens: 2_000, outputTokens: 400 })).toBe(0.012);
    // 1M × $4 + 1M × $20
    expect(costUsd('claude-opus-5-5', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(
      24,
    );
  });

  it('is zero for no tokens and rounded to a millionth of a dollar', () => {
    expect(costUsd('claude-sonnet-4-6', { inputTokens: 0, outputTokens: 0 })).toBe(0);
    expect(costUsd('claude-haiku-4-5', { inputTokens: 1, outputTokens: 0 })).toBe(0.000001);
  });
});

describe('Function: pricingFor', () => {
  it('is the dated default table when the run overrides nothing', () => {
    // Act
    const table = pricingFor(undefined);

    // Assess
    expect(table).toBe(DEFAULT_PRICING);
    expect(table.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("replaces a model's price and carries the override's date", () => {
    // Prepare
    const override = {
      asOf: '2026-12-01',
      models: { 'claude-sonnet-4-6-20260101': { inputPerMTok: 1, outputPerMTok: 2 } },
    };

    // Act
    const table = pricingFor(override);

    // Assess
    expect(table.asOf).toBe('2026-12-01');
    expect(costUsd('claude-sonnet-4-6', { inputTokens: 1_000_000, outputTokens: 0 }, table)).toBe(
      1,
    );
    // The models it does not name keep the table's prices.
    expect(priceOf('claude-haiku-4-5', table).inputPerMTok).toBe(1);
    expect(DEFAULT_PRICING.models['claude-sonnet-4-6']?.inputPerMTok).toBe(3);
  });
});
