import { describe, expect, it } from 'vitest';
import {
  projectOfScope,
  registryScopes,
  selectPatterns,
} from '../../lambdas/core/learning/pattern-query.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const patterns = [
  makeRegistryPattern({ patternId: 'tmpl', type: 'template', successRate: 1 }),
  makeRegistryPattern({ patternId: 'weak', successRate: 0.5, tags: ['python'] }),
  makeRegistryPattern({ patternId: 'strong', successRate: 0.9 }),
  makeRegistryPattern({ patternId: 'anti', type: 'anti', successRate: 0.8 }),
];
const ids = (filter: Parameters<typeof selectPatterns>[1]) =>
  selectPatterns(patterns, filter).map((pattern) => pattern.patternId);

describe('Function: selectPatterns', () => {
  it('orders by type, then the best success rate first', () => {
    expect(ids({})).toEqual(['strong', 'weak', 'anti', 'tmpl']);
  });

  it('keeps the type, the minimum success rate (inclusive) and every tag asked for', () => {
    expect(ids({ type: 'error' })).toEqual(['strong', 'weak']);
    expect(ids({ minSuccessRate: 0.8 })).toEqual(['strong', 'anti', 'tmpl']);
    expect(ids({ tags: ['typescript', 'null-safety'] })).toEqual(['strong', 'anti', 'tmpl']);
    expect(ids({ tags: ['python'] })).toEqual(['weak']);
  });
});

describe('Function: registryScopes', () => {
  it('is org, then each project once, sorted', () => {
    expect(registryScopes(['web', 'shop', 'web'])).toEqual(['org', 'project:shop', 'project:web']);
    expect(registryScopes([])).toEqual(['org']);
    expect(projectOfScope('project:shop')).toBe('shop');
    expect(projectOfScope('org')).toBeUndefined();
  });
});
