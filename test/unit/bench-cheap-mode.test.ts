import { describe, expect, it } from 'vitest';
import { checkAgreement, regexFigures } from '../../bench/cheap-mode/corpus.js';
import { makeDocuments, makePatternSet } from '../../bench/cheap-mode/inputs.js';
import type { Options } from '../../bench/cheap-mode/options.js';
import { cheapModeReport, textLines } from '../../bench/cheap-mode/report.js';
import { NOT_MEASURED, type Throughput } from '../../bench/cheap-mode/throughput.js';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { compileReferencePatterns } from '../../lambdas/core/cheap/reference-matcher.js';

describe('bench/cheap-mode: inputs', () => {
  it('generates the same pattern set and corpus for the same seed', () => {
    expect(makePatternSet(50, 7)).toEqual(makePatternSet(50, 7));
    expect(makeDocuments(5, 8)).toEqual(makeDocuments(5, 8));
    expect(makePatternSet(50, 7)).not.toEqual(makePatternSet(50, 9));
  });

  it('makes active patterns and ~2 KB user stories', () => {
    const set = makePatternSet(100, 1);
    expect(set.patterns).toHaveLength(100);
    expect(set.patterns.every((pattern) => pattern.status === 'active')).toBe(true);
    const [story] = makeDocuments(1, 2);
    expect(story).toMatchObject({ kind: 'document', documentType: 'user_story' });
    const content = (story as { content: { description: string } }).content;
    expect(content.description.length).toBeGreaterThanOrEqual(1300);
  });
});

describe('bench/cheap-mode: the corpus check', () => {
  it('finds both matchers agreeing on every document, and counts what they fired', () => {
    const set = makePatternSet(200, 3);
    const documents = makeDocuments(20, 4);
    const corpus = checkAgreement(documents, compilePatternSet(set), compileReferencePatterns(set));
    expect(corpus.fired).toBeGreaterThan(0);
    expect(corpus.characters).toBeGreaterThan(20 * 1300);
    const regexes = regexFigures(set);
    expect(regexes.regexes).toBe(set.patterns.flatMap((pattern) => pattern.regexes).length);
    expect(regexes.regexesExact + regexes.regexesWithLiteral).toBeLessThanOrEqual(regexes.regexes);
  });
});

describe('bench/cheap-mode: the report', () => {
  const options: Options = {
    json: false,
    patterns: 1000,
    documents: 2000,
    rounds: 7,
    minRoundMs: 300,
    seed: 1,
    skipBaseline: false,
  };
  const throughput = (perSecond: number): Throughput => ({
    rounds: [perSecond],
    cpuRounds: [perSecond * 1.5],
    wall: { median: perSecond, min: perSecond - 1000, max: perSecond + 1000 },
    cpu: { median: perSecond * 1.5, min: perSecond, max: perSecond * 2 },
  });
  const measured = {
    corpus: { fired: 50_000, characters: 3_800_000 },
    regexes: { regexes: 100, regexesExact: 60, regexesWithLiteral: 30 },
    compileMs: { compiled: 80, reference: 300 },
    compiled: throughput(60_000),
    baseline: throughput(600),
  };

  it('prints the corpus, both throughputs, the speedup and the target', () => {
    const lines = textLines(cheapModeReport(options, measured));
    expect(lines.slice(0, 2)).toEqual([
      'cheap mode: 1000 active patterns (100 regexes: 60 exact string sets, 30 with a literal prefilter, 10 always run)',
      'corpus: 2000 user stories, ~1900 chars, 25 patterns fired on average',
    ]);
    expect(lines[2]).toBe(
      'compile: 80.0 ms (automaton), 300.0 ms (reference); 7 rounds of ≥ 300 ms each, one thread',
    );
    expect(lines[3]).toBe(
      'compiled (one automaton pass per artefact)    60,000/s   (min 59,000, max 61,000; per CPU second 90,000)',
    );
    expect(lines[5]).toBe('speedup: ×100.0');
    expect(lines.at(-1)).toBe('target ≥ 50,000 artefacts/s: met');
  });

  it('has no speedup without a baseline, and says NOT met under the target', () => {
    const report = cheapModeReport(options, {
      ...measured,
      compiled: throughput(40_000),
      baseline: NOT_MEASURED,
    });
    expect(report.speedup).toBeNaN();
    expect(report.met).toBe(false);
    expect(textLines(report).at(-1)).toBe('target ≥ 50,000 artefacts/s: NOT met');
  });
});
