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

  it('makes active patterns and ~2 KB user stories whose description is one story sentence', () => {
    const set = makePatternSet(100, 1);
    expect(set.patterns).toHaveLength(100);
    expect(set.patterns.every((pattern) => pattern.status === 'active')).toBe(true);
    const stories = makeDocuments(200, 2);
    expect(stories[0]).toMatchObject({ kind: 'document', documentType: 'user_story' });
    const contents = stories.map(
      (story) =>
        (story as { content: { description: string; acceptance_criteria: string[] } }).content,
    );
    const connextra = contents.filter((content) => /^As an? /.test(content.description));
    expect(connextra.length / contents.length).toBeGreaterThan(0.85);
    const characters = contents.map(
      (content) => content.description.length + content.acceptance_criteria.join('').length,
    );
    expect(characters.reduce((sum, count) => sum + count, 0) / contents.length).toBeGreaterThan(
      1700,
    );
  });
});

describe('bench/cheap-mode: the corpus check', () => {
  it('finds both matchers agreeing on every document, and counts what they fired', () => {
    const set = makePatternSet(200, 3);
    const documents = makeDocuments(20, 4);
    const corpus = checkAgreement(documents, compilePatternSet(set), compileReferencePatterns(set));
    expect(corpus.fired).toBeGreaterThan(0);
    expect(corpus.characters).toBeGreaterThan(20 * 1300);
    expect(Object.keys(corpus.defects)).toContain('atomic');
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
    backlog: 10_000,
    allPairsSubset: 2000,
    skipCli: false,
  };
  const throughput = (perSecond: number): Throughput => ({
    rounds: [perSecond],
    cpuRounds: [perSecond * 1.5],
    wall: { median: perSecond, min: perSecond - 1000, max: perSecond + 1000 },
    cpu: { median: perSecond * 1.5, min: perSecond, max: perSecond * 2 },
  });
  const cpu = (median: number) => ({
    roundsMs: [median],
    median,
    min: median - 10,
    max: median + 10,
  });
  const measured = {
    corpus: { fired: 50_000, characters: 3_800_000, defects: { atomic: 320, minimal: 120 } },
    regexes: { regexes: 100, regexesExact: 60, regexesWithLiteral: 30 },
    compileMs: { compiled: 80, reference: 300 },
    compiled: throughput(60_000),
    detectorsOff: throughput(66_000),
    baseline: throughput(600),
    backlog: {
      stories: 10_000,
      nearDuplicates: { role: 48, word: 52 },
      flagged: { unique: 96, uniform: 1500 },
      allDetectors: cpu(400),
      storyDetectorsOnly: cpu(300),
      unique: {
        prefixFiltered: cpu(40),
        allPairsSubset: cpu(1000),
        subset: 2000,
        allPairsExtrapolatedMs: 25_010,
        agree: true,
      },
      cli: { stories: 10_000, cpuMs: 3500, oneStoryCpuMs: 2900 },
    },
  };

  it('prints the corpus, the throughputs with the detectors on and off, the speedup and the target', () => {
    const lines = textLines(cheapModeReport(options, measured));
    expect(lines.slice(0, 3)).toEqual([
      'cheap mode: 1000 active patterns (100 regexes: 60 exact string sets, 30 with a literal prefilter, 10 always run)',
      'corpus: 2000 user stories, ~1900 chars, 25 patterns fired on average',
      'QUS defects in the corpus: atomic 16%, minimal 6%',
    ]);
    expect(lines[3]).toBe(
      'compile: 80.0 ms (automaton), 300.0 ms (reference); 7 rounds of ≥ 300 ms each, one thread',
    );
    expect(lines[4]).toBe(
      'compiled, QUS detectors on (as in production)       60,000/s   (min 59,000, max 61,000; per CPU second 90,000)',
    );
    expect(lines[5]).toMatch(/^compiled, QUS detectors off +66,000\/s/);
    expect(lines[7]).toBe(
      'speedup: ×100.0 over the baseline; the detectors take 9% of the throughput',
    );
    expect(lines[8]).toBe('target ≥ 50,000 artefacts/s (detectors on, median): met');
  });

  it('prints the backlog beside its baselines, the CLI run and the target', () => {
    const lines = textLines(cheapModeReport(options, measured));
    expect(lines).toContain(
      'all detectors (as in production)                     400 ms CPU   (min 390, max 410)',
    );
    expect(lines.find((line) => line.startsWith('unique alone, all pairs'))).toMatch(
      /1,000 ms on 2000, scaled +25,010 ms CPU .*: yes\)$/,
    );
    expect(lines.find((line) => line.startsWith('ralph eval'))).toContain(
      'one story: 2,900 ms (start-up and loading); the difference 600 ms',
    );
    expect(lines).toContain('target < 1,000 ms CPU for the backlog (all detectors, median): met');
    const slow = cheapModeReport(options, {
      ...measured,
      backlog: { ...measured.backlog, allDetectors: cpu(1200), cli: null },
    });
    expect(slow.backlog.met).toBe(false);
    expect(textLines(slow)).toContain(
      'ralph eval FOLDER --mode cheap --json: not measured (--skip-cli)',
    );
  });

  it('has no speedup without a baseline, and says NOT met under the target', () => {
    const report = cheapModeReport(options, {
      ...measured,
      compiled: throughput(40_000),
      baseline: NOT_MEASURED,
    });
    expect(report.speedup).toBeNaN();
    expect(report.met).toBe(false);
    expect(textLines(report)).toContain(
      'target ≥ 50,000 artefacts/s (detectors on, median): NOT met',
    );
  });
});
