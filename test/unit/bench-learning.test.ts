import { describe, expect, it } from 'vitest';
import { makeQueries, makeSnapshot } from '../../bench/learning/synthetic-registry.js';
import { LearningSnapshotSchema } from '../../lambdas/core/schemas/learning.js';

describe('Function: makeSnapshot', () => {
  it('makes a valid learning snapshot of the asked size', () => {
    // Act
    const snapshot = LearningSnapshotSchema.parse(makeSnapshot(300, 7));

    // Assess
    expect(snapshot.patterns).toHaveLength(300);
    const types = new Set(snapshot.patterns.map((pattern) => pattern.type));
    expect([...types].sort()).toEqual(['anti', 'error', 'success', 'template']);
    expect(
      snapshot.patterns.filter((pattern) => pattern.type === 'error' && !pattern.issue),
    ).toEqual([]);
  });

  it('makes the same registry and queries from the same seed, and others from another', () => {
    expect(makeSnapshot(50, 7)).toEqual(makeSnapshot(50, 7));
    expect(makeSnapshot(50, 7)).not.toEqual(makeSnapshot(50, 8));
    expect(makeQueries(20, 7)).toEqual(makeQueries(20, 7));
  });

  it('asks with a task title, a description and an error signature', () => {
    for (const query of makeQueries(20, 7)) expect(query.split('\n')).toHaveLength(3);
  });
});
