import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { ConvergenceProofSchema } from '../../lambdas/core/schemas/analysis/checks.js';
import { IterationLogSchema } from '../../lambdas/core/schemas/analysis/log.js';
import {
  CheapReportSchema,
  StoredJudgementSchema,
} from '../../lambdas/core/schemas/evaluation-documents.js';
import {
  CheapModeResultSchema,
  PatternSchema,
  type Pattern,
  type StoryDocument,
} from '../../lambdas/core/schemas/evaluation.js';
import { projectIdOf } from '../../lambdas/core/steps/lifecycle.js';
import { QusSettingsSchema } from '../../lambdas/core/schemas/qus.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { parseJsonText } from '../../lambdas/core/shared/validation.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { fault } from '../../local/model-server/faults.js';
import {
  forJudgeOf,
  startEvaluationModel,
  type EvaluationModel,
} from '../support/evaluation-model.js';
import { makeSuiteRepo, suiteRunConfig, suiteStory } from '../support/evaluation-suite-repo.js';
import { runToEnd, submitLocalRun, type RunSnapshot } from '../support/local-runs.js';

/** What analyze-gap writes as `log.json`: the iteration log and what was carried out. */
const StoredLogSchema = IterationLogSchema.extend({
  actionsCarriedOut: z.array(z.string()),
  judgeRerun: z.boolean(),
  rolledBackTo: z.number().int().positive().optional(),
  rescored: z.array(CheapModeResultSchema).optional(),
  nextPatternSetVersion: z.number().int().positive(),
});

/** Three phrases every suite story holds (see `suiteStory`). */
const STORY_PHRASES = ['frustrated when', 'by hand', 'month-end close'];

/**
 * The converging run's stories: the suite's standard one and four that differ from it in
 * what the cheap heuristics score (a file path, fewer criteria, no value phrase), so that
 * the two modes have a ranking to agree on. All keep the three phrases.
 */
const CONVERGING_STORIES: Record<string, Partial<StoryDocument>> = {
  'conv-1': { technical_area: 'src/billing/export.ts' },
  'conv-2': { title: 'Export invoices as CSV', technical_area: 'src/billing/csv.ts' },
  'conv-3': {},
  'conv-4': {
    acceptance_criteria: [
      'Clicking Export downloads a CSV file',
      'The CSV lists one row per invoice',
    ],
  },
  'conv-5': {
    description:
      'As an accountant I am frustrated when I copy invoices by hand into the ledger at month-end close.',
  },
};
/**
 * The judge's score of each converging story: in the cheap mode's order once it learned the
 * three phrases (+0.9), and on the same 1–5 ratings.
 */
const CONVERGING_JUDGE: Record<string, number> = {
  'conv-1': 4.9,
  'conv-2': 4.9,
  'conv-3': 4.4,
  'conv-4': 4.2,
  'conv-5': 4.0,
};

/**
 * Whole runs through the local stack (emulators, the real state machine, handlers, runner
 * and evaluation suite) with the judge and the proposer behind the Messages-API model
 * server: the real SDK, the real adapter, scripted answers and faults. Each scenario owns
 * a project (its own pattern set) and an artefact id prefix (its own answers).
 */
describe('Run loop: dual-mode evaluation', () => {
  let model: EvaluationModel;
  let stack: LocalStack;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    model = await startEvaluationModel();
    stack = await openLocalStack({ retryIntervalMs: 0, cancelPollMs: 100, model: model.local });
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });

  async function runSuite(input: {
    project: string;
    ids: string[];
    /** A story's fields other than the suite's standard story's, by id. */
    stories?: Record<string, Partial<StoryDocument>>;
    config: Parameters<typeof suiteRunConfig>;
    before?: (projectId: string) => Promise<void>;
  }): Promise<RunSnapshot> {
    const stories = input.ids.map((id) => suiteStory(id, input.stories?.[id]));
    // More open stories than iterations: what ends a run here is the evaluation or the limit.
    const repo = await makeSuiteRepo({ project: input.project, stories, storyCount: 6 });
    cleanups.push(repo.cleanup);
    const projectId = projectIdOf(input.project);
    if (input.before) await input.before(projectId);
    else await publishHeuristicsOnly(projectId, []);
    const runId = await submitLocalRun(stack, {
      repo: repo.path,
      prd: repo.prd,
      config: suiteRunConfig(...input.config),
    });
    return runToEnd(stack, runId);
  }

  /**
   * The project's first pattern set, with the design's heuristics and no QUS detectors:
   * these runs test how the loop learns, with scores the tests can add up by hand (each
   * learned phrase +0.3); the detectors have tests of their own.
   */
  async function publishHeuristicsOnly(projectId: string, patterns: Pattern[]): Promise<void> {
    await stack.deps.patternSets.publish(
      projectId,
      { schemaVersion: '2.0', patterns, qus: QusSettingsSchema.parse({ detectors: [] }) },
      { expectedCurrent: null, reason: 'seeded: heuristics only, no QUS detectors' },
    );
  }

  async function readJson<S extends z.ZodType>(key: string, schema: S): Promise<z.output<S>> {
    return schema.parse(parseJsonText(await stack.deps.artefacts.getText(key), key));
  }

  function summaryOf(iterations: readonly IterationRecord[], iteration: number) {
    const summary = iterations.find((record) => record.iteration === iteration)?.evaluation;
    if (!summary) throw new Error(`iteration ${iteration} has no evaluation summary`);
    return summary;
  }

  async function patternsOf(projectId: string, version: number): Promise<Pattern[]> {
    const set = await stack.deps.patternSets.get(projectId, version);
    if (!set) throw new Error(`pattern set v${version} of ${projectId} is missing`);
    return set.patterns;
  }

  it('a run whose gap closes: patterns are learned, the cheap score rises, it converges with a proof', async () => {
    // Prepare: five stories of different quality (enough to measure agreement), which the
    // judge ranks and rates as the cheap mode will once it learned; each proposal names a
    // phrase every story holds, so each learned pattern adds 0.3 to every cheap score.
    model.scenario('conv-', {
      judge: (artefactId) => CONVERGING_JUDGE[artefactId] ?? 1,
      propose: (_artefactId, call) => ({
        category: 'value_phrases',
        pattern: STORY_PHRASES[(call - 1) % STORY_PHRASES.length] as string,
        rationale: 'the judge credits the pain point the story names',
      }),
    });

    // Act: validateAfterTests 3 (default 10) lets the patterns be committed within the run;
    // weightLearningRate 0 keeps their weights at 1 (each adds 0.3), as the judge expects.
    const { run, iterations } = await runSuite({
      project: 'Eval Converge',
      ids: Object.keys(CONVERGING_JUDGE),
      stories: CONVERGING_STORIES,
      config: [
        {
          stopOnConvergence: true,
          patterns: { validateAfterTests: 3, weightLearningRate: 0 },
        },
        { maxIterations: 6 },
      ],
    });

    // Assess: learned in iteration 1, scored with them from iteration 2, converged at 3.
    const summaries = iterations.map((record) => record.evaluation);
    const cheapAverages = summaries.map((summary) => summary?.cheapAvg ?? 0);
    expect(cheapAverages[1]).toBeCloseTo((cheapAverages[0] ?? 0) + 0.9, 1);
    expect(cheapAverages[2]).toBe(cheapAverages[1]);
    expect(summaryOf(iterations, 1).gap).toBeGreaterThan(0.5);
    expect(summaryOf(iterations, 1).patternsProposed).toBe(3);
    expect(Math.abs(summaryOf(iterations, 3).gap ?? Infinity)).toBeLessThanOrEqual(0.5);
    expect(summaries.map((summary) => summary?.converged)).toEqual([false, false, true]);
    expect(run.status).toBe('completed');
    expect(run.stopReason).toMatch(/converged at iteration 3/);
    expect(run.evaluation).toMatchObject({ converged: true, convergedIteration: 3 });

    const proof = await readJson(
      artefactKeys.convergenceProof(run.runId),
      ConvergenceProofSchema.extend({ runId: z.string(), projectId: z.string() }),
    );
    expect(run.evaluation?.proofKey).toBe(artefactKeys.convergenceProof(run.runId));
    expect(proof).toMatchObject({ runId: run.runId, projectId: run.projectId, iteration: 3 });
    expect(Object.values(proof.checks).every(Boolean)).toBe(true);
    expect(Object.keys(proof.checks)).toHaveLength(11);
    expect(proof.evidence.iterationsChecked).toEqual([2, 3]);
    expect(proof.evidence.cheapScores).toEqual([cheapAverages[1], cheapAverages[2]]);
    for (const { spearman, qwk } of proof.evidence.agreement) {
      expect(spearman).toBeGreaterThanOrEqual(0.6);
      expect(qwk).toBeGreaterThanOrEqual(0.6);
    }
    expect(proof.reasons.minSpearman?.reason).toMatch(/^ρ ≥ 0\.6 \(\d\.\d\d\)$/);

    // The learned phrases are the proposed ones, committed (validated) by iteration 3.
    const learned = await patternsOf(run.projectId, summaryOf(iterations, 3).patternSetVersion);
    expect(learned.map((pattern) => [pattern.phrases, pattern.type, pattern.status])).toEqual(
      STORY_PHRASES.map((phrase) => [[phrase], 'good', 'active']),
    );
    const cheap = await readJson(
      artefactKeys.iteration(run.runId, 3, 'cheap.json'),
      CheapReportSchema,
    );
    expect(cheap.results.every((result) => result.patternsMatched.length === 3)).toBe(true);
  });

  describe('a harmful proposal', () => {
    // harm-low is over-scored by the cheap mode (judge 1.0), the others under-scored
    // (judge 5.0): the only proposal asked for (harm-low's) is a bad pattern on a phrase
    // every story holds, which lowers every cheap score by 0.3 and so widens the gap from
    // 0.57 to 0.87: more than 0.2 wider, a regression.
    let snapshot: RunSnapshot;
    beforeAll(async () => {
      model.scenario('harm-', {
        judge: (artefactId) => (artefactId === 'harm-low' ? 1 : 5),
        propose: () => ({
          category: 'bad_story_indicators',
          pattern: 'month-end close',
          rationale: 'the judge holds the deadline talk against the story',
        }),
      });
      snapshot = await runSuite({
        project: 'Eval Harm',
        ids: ['harm-1', 'harm-2', 'harm-3', 'harm-low'],
        config: [{ proposals: { maxPerIteration: 1 } }, { maxIterations: 2 }],
      });
    });

    it('is rolled back: the pointer moves back and the cheap mode is re-scored with the restored set', async () => {
      const { run, iterations } = snapshot;
      // v2 holds the harmful pattern and scored iteration 2 ...
      expect(summaryOf(iterations, 1)).toMatchObject({
        gap: expect.closeTo(0.57, 5),
        patternsProposed: 1,
        nextPatternSetVersion: 2,
      });
      const [harmful] = await patternsOf(run.projectId, 2);
      expect(harmful).toMatchObject({ type: 'bad', phrases: ['month-end close'] });
      const scored = await readJson(
        artefactKeys.iteration(run.runId, 2, 'cheap.json'),
        CheapReportSchema,
      );
      expect(scored.patternSetVersion).toBe(2);
      expect(scored.results.map((result) => result.gestalt)).toEqual([3.13, 3.13, 3.13, 3.13]);

      // ... the regression moved the pointer back to v1, then v3 was published: v1's
      // patterns, and the harmful one kept as rejected so that it is not proposed again.
      const current = await stack.deps.patternSets.current(run.projectId);
      expect(current?.version).toBe(3);
      expect(current?.set.parentVersion).toBe(1);
      expect(current?.set.patterns.map((pattern) => [pattern.phrases, pattern.status])).toEqual([
        [['month-end close'], 'rejected'],
      ]);
      const versions = await stack.deps.patternSets.listVersions(run.projectId);
      expect(versions.map((version) => version.version)).toEqual([3, 2, 1]);

      // The iteration's figures are those of the set that scored it (v2): the evidence.
      const summary = summaryOf(iterations, 2);
      expect(summary).toMatchObject({
        rolledBackTo: 1,
        patternSetVersion: 2,
        nextPatternSetVersion: 3,
        cheapAvg: 3.13,
        regression: true,
      });
      expect(summary.actions).toContain('rollback_patterns');

      const log = await readJson(artefactKeys.iteration(run.runId, 2, 'log.json'), StoredLogSchema);
      expect(log).toMatchObject({ rolledBackTo: 1, nextPatternSetVersion: 3 });
      expect(log.actionsCarriedOut).toContain('rollback_patterns');
      expect(log.rescored?.map((result) => [result.gestalt, result.patternsMatched])).toEqual([
        [3.43, []],
        [3.43, []],
        [3.43, []],
        [3.43, []],
      ]);
    });

    it('still says why it rolled back: the regression and its trigger are recorded', async () => {
      const { run, iterations } = snapshot;
      const log = await readJson(artefactKeys.iteration(run.runId, 2, 'log.json'), StoredLogSchema);
      expect(log.regressionCheck).toMatchObject({ regression: true, currentVersion: 2 });
      expect(log.regressionCheck.triggers.map((trigger) => trigger.type)).toContain(
        'gap_increased',
      );
      expect(summaryOf(iterations, 2).regression).toBe(true);
    });
  });

  it('a plateau triggers its recovery: proposal diversity, pruning, provisional patterns reset', async () => {
    // Prepare: the project starts with two migrated provisional patterns: one that fires
    // (+0.3) and a weak one (0.2) that never does. The judge stays at 4.5 and the cheap
    // mode at 3.73; the proposals name phrases no story holds: the gap stays at 0.77.
    const seeded = [
      PatternSchema.parse({
        id: 'p_seed_fires',
        type: 'good',
        description: 'names the manual work',
        phrases: ['by hand'],
        source: 'migration',
        discoveredAt: '2026-01-01T00:00:00Z',
        status: 'provisional',
      }),
      PatternSchema.parse({
        id: 'p_seed_weak',
        type: 'good',
        description: 'mentions a screen reader',
        phrases: ['screen reader'],
        weight: 0.2,
        source: 'migration',
        discoveredAt: '2026-01-01T00:00:00Z',
        status: 'provisional',
      }),
    ];
    const unseen = ['offline mode', 'dark theme', 'keyboard shortcut', 'bulk edit', 'audit trail'];
    model.scenario('plat-', {
      judge: () => 4.5,
      propose: (_artefactId, call) => ({
        category: 'good_story_indicators',
        pattern: `${unseen[(call - 1) % unseen.length] as string} ${Math.ceil(call / unseen.length)}`,
        rationale: 'a signal the judge may value',
      }),
    });

    // Act
    const { run, iterations } = await runSuite({
      project: 'Eval Plateau',
      ids: ['plat-1', 'plat-2', 'plat-3'],
      config: [{}, { maxIterations: 3 }],
      before: (projectId) => publishHeuristicsOnly(projectId, seeded),
    });

    // Assess: three gaps within 0.05, above 0.5: a plateau at iteration 3.
    expect(iterations.map((record) => record.evaluation?.gap)).toEqual([
      expect.closeTo(0.77, 5),
      expect.closeTo(0.77, 5),
      expect.closeTo(0.77, 5),
    ]);
    expect(summaryOf(iterations, 2).divergence).toEqual([]);
    const summary = summaryOf(iterations, 3);
    expect(summary.divergence).toContain('gap_plateau');
    expect(summary.actions).toEqual([
      'increase_proposal_diversity',
      'prune_patterns',
      'reset_provisional',
    ]);
    expect(run.evaluation?.proposalDiversity).toBe(true);

    const before = await patternsOf(run.projectId, summary.patternSetVersion);
    const after = await patternsOf(run.projectId, summary.nextPatternSetVersion);
    const byId = (patterns: Pattern[], id: string) => patterns.find((pattern) => pattern.id === id);
    expect(byId(before, 'p_seed_weak')?.status).toBe('provisional');
    expect(byId(after, 'p_seed_weak')?.status).toBe('pruned');
    expect(byId(before, 'p_seed_fires')).toMatchObject({ status: 'provisional', timesTested: 6 });
    expect(byId(after, 'p_seed_fires')).toMatchObject({
      status: 'provisional',
      timesTested: 0,
      timesCorrect: 0,
    });
  });

  it('a gap rising for three iterations triggers rollback, a lower learning rate and a higher validation bar', async () => {
    // Prepare: the judge drifts up 0.1 an iteration (4.2, 4.3, 4.4) while the cheap mode
    // stays at 3.43; every iteration publishes a pattern set (proposals no story holds).
    const drift = [4.2, 4.3, 4.4];
    model.scenario('rise-', {
      judge: (_artefactId, call) => drift[Math.min(call, drift.length) - 1] as number,
      propose: (_artefactId, call) => ({
        category: 'good_story_indicators',
        pattern: `release note ${call}`,
        rationale: 'a signal the judge may value',
      }),
    });

    // Act
    const { run, iterations } = await runSuite({
      project: 'Eval Rising',
      ids: ['rise-1', 'rise-2', 'rise-3'],
      config: [{}, { maxIterations: 3 }],
    });

    // Assess
    expect(iterations.map((record) => record.evaluation?.gap)).toEqual([
      expect.closeTo(0.77, 5),
      expect.closeTo(0.87, 5),
      expect.closeTo(0.97, 5),
    ]);
    const scoredWith = await Promise.all(
      [1, 2, 3].map(async (iteration) => {
        const key = artefactKeys.iteration(run.runId, iteration, 'cheap.json');
        return (await readJson(key, CheapReportSchema)).patternSetVersion;
      }),
    );
    expect(scoredWith).toEqual([1, 2, 3]);
    const summary = summaryOf(iterations, 3);
    expect(summary.divergence).toContain('gap_increasing');
    expect(summary).toMatchObject({ rolledBackTo: 1, nextPatternSetVersion: 4, judgeRerun: true });
    // The judge moved away, not the cheap mode: it is re-run first (every artefact, median).
    expect(summary.divergence).toContain('expensive_mode_shifted');
    expect(summary.actions).toEqual([
      'rerun_judge',
      'rollback_patterns',
      'reduce_learning_rate',
      'increase_validation_threshold',
    ]);
    expect(run.evaluation?.learningRateFactor).toBe(0.5);
    expect(run.evaluation?.validateMinAccuracy).toBe(0.8);
    // Back to v1's patterns (none); every pattern of v3, which scored, kept as rejected (v4).
    const current = await stack.deps.patternSets.current(run.projectId);
    const v3 = await stack.deps.patternSets.get(run.projectId, 3);
    expect(current?.version).toBe(4);
    expect(current?.set.parentVersion).toBe(1);
    expect(current?.set.patterns.map((pattern) => pattern.id)).toEqual(
      v3?.patterns.map((pattern) => pattern.id),
    );
    expect(current?.set.patterns.every((pattern) => pattern.status === 'rejected')).toBe(true);
    expect(current?.set.patterns.length).toBeGreaterThan(0);
  });

  describe('judge faults in one iteration', () => {
    // fault-a: 429 then 529, then a good answer; fault-b: 500, then a good answer;
    // fault-bad: never a usable answer (not JSON, out of range, not JSON);
    // fault-range: out of range, then a good answer. One of four failed: 25% > 20%.
    const ids = ['fault-a', 'fault-b', 'fault-bad', 'fault-range'];
    /** The re-run's answers per artefact: first pass, then the two more samples. */
    const answers: Record<string, number[]> = {
      'fault-a': [4, 2, 5],
      'fault-b': [4.5, 4.5, 4.5],
      'fault-bad': [3.5, 3, 4],
      'fault-range': [4, 4, 4],
    };
    let snapshot: RunSnapshot;

    beforeAll(async () => {
      model.scenario('fault-', {
        judge: (artefactId, call) => answers[artefactId]?.[call - 1] ?? 3,
      });
      model.server.script(
        forJudgeOf('fault-a', fault.rateLimited(0)),
        forJudgeOf('fault-a', fault.overloaded()),
        forJudgeOf('fault-b', fault.serverError()),
        forJudgeOf('fault-bad', fault.malformed()),
        forJudgeOf('fault-bad', fault.outOfRange(7)),
        forJudgeOf('fault-bad', fault.malformed()),
        forJudgeOf('fault-range', fault.outOfRange(0)),
      );
      snapshot = await runSuite({
        project: 'Eval Faults',
        ids,
        config: [{}, { maxIterations: 1 }],
      });
    });

    const verdict = (artefactId: string) =>
      readJson(artefactKeys.judgeResult(snapshot.run.runId, 1, artefactId), StoredJudgementSchema);

    it('429 / 529 / 500 answers are retried until the judge answers', async () => {
      expect(model.server.pending()).toBe(0);
      // The first pass (the adapter's tries), then the re-run's two more samples.
      expect(model.judgeStatuses('fault-a')).toEqual([429, 529, 200, 200, 200]);
      expect(model.judgeStatuses('fault-b')).toEqual([500, 200, 200, 200]);
      expect((await verdict('fault-a')).result).toMatchObject({ status: 'ok', gestalt: 4 });
      expect((await verdict('fault-b')).result).toMatchObject({ status: 'ok', gestalt: 4.5 });
    });

    it('an answer that is not JSON or out of range is retried, then recorded as failed with the raw answer', async () => {
      const retried = await verdict('fault-range');
      expect(retried.result).toMatchObject({ status: 'ok', gestalt: 4, attempts: 2 });

      const failed = await verdict('fault-bad');
      const rawKey = artefactKeys.judgeRawAnswer(snapshot.run.runId, 1, 'fault-bad', 1);
      expect(failed.result).toMatchObject({ status: 'failed', attempts: 3, rawAnswerKey: rawKey });
      expect(failed.result.status === 'failed' && failed.result.error).toMatch(
        /invalid answer after 3 tries: not valid JSON/,
      );
      expect(await stack.deps.artefacts.getText(rawKey)).toBe(
        'Here is my evaluation: {"gestalt": 4, "reasoning": "The story is cle',
      );
    });

    it('more than 20% failures make the judge unreliable: every artefact re-run, the median taken', async () => {
      const summary = summaryOf(snapshot.iterations, 1);
      expect(summary).toMatchObject({ judgeRerun: true, judgeFailed: 0, judged: 4 });
      expect(summary.actions).toContain('rerun_judge');

      const log = await readJson(
        artefactKeys.iteration(snapshot.run.runId, 1, 'log.json'),
        StoredLogSchema,
      );
      expect(log.judgeRerun).toBe(true);
      // The medians of the three samples each artefact has after the re-run.
      expect(
        Object.fromEntries(
          log.perArtefactResults.map((line) => [line.artefactId, line.expensiveScore]),
        ),
      ).toEqual({ 'fault-a': 4, 'fault-b': 4.5, 'fault-bad': 3.5, 'fault-range': 4 });
      // fault-a's samples (4 reused, 2 and 5 new) disagree: flagged with all three.
      expect(log.judgeReliability.highVariance).toEqual([
        { artefactId: 'fault-a', samples: [4, 2, 5], variance: expect.closeTo(7 / 3, 5) },
      ]);
    });
  });
});
