import { describe, expect, it } from 'vitest';
import { backlogArtefacts, DUPLICATE_EVERY, makeBacklog } from '../../bench/cheap-mode/backlog.js';
import { uniqueFigures } from '../../bench/cheap-mode/backlog-timing.js';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateBacklog } from '../../lambdas/core/cheap/evaluate-backlog.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';

const afterRole = (sentence: string): string => sentence.slice(sentence.indexOf(','));
const words = (sentence: string): string[] => sentence.split(' ');

describe('bench/cheap-mode: the generated backlog', () => {
  const backlog = makeBacklog(2000, 11);

  it('is the same for the same seed, and another for another', () => {
    expect(makeBacklog(300, 11)).toEqual(makeBacklog(300, 11));
    expect(makeBacklog(300, 11).sentences).not.toEqual(makeBacklog(300, 12).sentences);
  });

  it('repeats one story in a hundred, each an earlier original with one change', () => {
    expect(backlog.duplicates).toHaveLength(2000 / DUPLICATE_EVERY);
    const repeats = new Set(backlog.duplicates.map((duplicate) => duplicate.index));
    for (const { index, of, changed } of backlog.duplicates) {
      expect(of).toBeLessThan(index);
      expect(repeats.has(of)).toBe(false);
      const [mine, theirs] = [backlog.sentences[index]!, backlog.sentences[of]!];
      expect(mine).not.toBe(theirs);
      if (changed === 'role') expect(afterRole(mine)).toBe(afterRole(theirs));
      else {
        const differing = words(mine).filter((word, at) => word !== words(theirs)[at]);
        expect(differing).toHaveLength(1);
      }
    }
    const kinds = backlog.duplicates.map((duplicate) => duplicate.changed);
    expect(kinds).toContain('role');
    expect(kinds).toContain('word');
  });

  it('has every story for another role flagged unique by the backlog scoring', () => {
    const set = PatternSetSchema.parse({
      schemaVersion: '2.0',
      version: 1,
      createdAt: '2026-01-16T12:00:00Z',
      patterns: [],
    });
    const results = evaluateBacklog(backlogArtefacts(backlog), compilePatternSet(set));
    for (const { index, of, changed } of backlog.duplicates) {
      if (changed !== 'role') continue;
      expect(results[index]!.defects).toContainEqual(
        expect.objectContaining({ criterion: 'unique', relatedId: results[of]!.artefactId }),
      );
    }
  });

  it('finds the same near-duplicates with prefix filtering as with every pair', () => {
    const figures = uniqueFigures(backlog.sentences, 0.9, { subset: 500, rounds: 1 });
    expect(figures.agree).toBe(true);
    expect(figures.subset).toBe(500);
    // Scaled by pairs: 2000·1999 / (500·499).
    expect(figures.allPairsExtrapolatedMs).toBeCloseTo(
      (figures.allPairsSubset.median * 2000 * 1999) / (500 * 499),
    );
  });
});
