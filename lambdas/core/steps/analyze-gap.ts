import type { StepCall } from './deps.js';
import { iterationResultOf, readResultReport } from './iteration-result.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { NotFoundError } from '../errors.js';
import { loadIteration, loadRun } from './load.js';
import type { LoopState } from '../schemas/loop-state.js';
import {
  RunEvaluationStateSchema,
  type RunEvaluationState,
} from '../schemas/evaluation-records.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { RunRecord } from '../schemas/run.js';
import { analyseIteration, type IterationAnalysis } from '../patterns/analyse-iteration.js';
import { buildIterationMetrics } from '../gap/iteration-metrics.js';
import { pairResults } from '../gap/pairing.js';
import { compilePatternSet } from '../cheap/compile.js';
import { evaluateBacklog } from '../cheap/evaluate-backlog.js';
import { proposePatterns } from './proposing.js';
import type { ProposeResult } from '../patterns/proposals/merge.js';
import type {
  Artefact,
  CheapModeResult,
  ExpensiveModeResult,
  PatternSet,
} from '../schemas/evaluation.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type { EvaluationDeps } from './evaluation-deps.js';
import { loadJudgements, rerunJudge } from './judge-results.js';
import { judgeRunOf, type JudgeRun, type JudgedArtefact } from '../judge/verdict.js';
import { readEvaluationArtefacts, readStoredJson, requireEvaluation } from './evaluation-read.js';
import { effectiveConfig } from '../patterns/recovery/recover.js';
import {
  CheapReportSchema,
  GapReportSchema,
  type GapReport,
} from '../schemas/evaluation-documents.js';
import { publishNext, rolledBackPatterns } from './next-version.js';
import { recordAnalysis, type Restored } from './gap-records.js';
import { pricingFor, type PricingTable } from '../judge/pricing.js';
import { pricedLine, type ModelCalls } from '../costs/cost-lines.js';
import type { CostLine } from '../schemas/cost-receipt.js';

/**
 * The gap between the modes, and what the run learns from it, for one iteration:
 * 1. the judge's Map verdicts, re-run by median (`judge.reruns`) when unreliable;
 * 2. the analysis (`analyseIteration`): pattern outcomes and lifecycle, metrics,
 *    regression, divergence, recovery (planned, and the pure actions carried out),
 *    component health, convergence;
 * 3. the recovery actions with side effects: a shifted judge is re-run (and the iteration
 *    analysed again), a rollback restores the previous pattern set and re-scores the cheap
 *    mode with it;
 * 4. new provisional patterns proposed when the gap calls for it (model and miner);
 * 5. the next pattern-set version published (validated before the pointer moves);
 * 6. `gap.json`, `log.json` and, on convergence, the proof written; the iteration's
 *    summary and the run's evaluation state saved (gap-records.ts).
 */
export async function analyzeGap(
  deps: EvaluationDeps,
  input: LoopState,
  { signal }: StepCall = {},
): Promise<LoopState> {
  const { iteration, artefactIds } = requireEvaluation(input);
  const done: LoopState = { runId: input.runId, segment: input.segment, iteration };
  const [run, record] = await Promise.all([
    loadRun(deps.runs, input.runId),
    loadIteration(deps.runs, input.runId, iteration),
  ]);
  if (record.evaluation) return done;

  const inputs = { ...(await readInputs(deps, run, record, artefactIds)), signal };
  const judged = await judgeAndAnalyse(deps, inputs);
  const { analysis } = judged;
  const restored = await restoreOnRollback(deps, inputs, analysis);
  // Learning, unless the set was just rolled back for harm done.
  const learned = restored ? undefined : await learn(deps, inputs, analysis, judged.judgeRun);
  const scoredWith = inputs.scoredWith;
  const nextVersion = await publishNext(deps, run, {
    iteration,
    scoredWith,
    patterns: restored
      ? restored.set.patterns
      : [...analysis.recovered.patterns, ...(learned?.patterns ?? [])],
    rolledBack: restored ? rolledBackPatterns(scoredWith, restored.set) : [],
    rolledBackTo: restored?.set.version,
    reason: restored
      ? `iteration ${iteration}: rolled back to v${restored.set.version} (${restored.description})`
      : `iteration ${iteration}: ${analysis.patternEvents.length} lifecycle events, ${learned?.report.proposed.length ?? 0} proposed`,
  });
  await recordAnalysis(deps, {
    run,
    record,
    artefactIds,
    state: inputs.state,
    scoredWith,
    analysis,
    judgeRerun: judged.judgeRerun,
    restored,
    proposal: learned?.report,
    nextVersion,
    costUsd: judged.costUsd + (learned?.report.usage.costUsd ?? 0),
    costLines: evaluationLines(inputs, judged.judgeCalls, learned),
  });
  return done;
}

/** The receipt's lines of this step's model calls: the judge's, and the proposer's. */
function evaluationLines(
  inputs: AnalysisInputs,
  judge: ModelCalls,
  learned: ProposeResult | undefined,
): CostLine[] {
  const proposer = learned?.report;
  return [
    ...pricedLine('judge', judge, inputs.pricing),
    ...(proposer
      ? pricedLine(
          'proposer',
          {
            model: inputs.run.config.models.proposer,
            inputTokens: proposer.usage.inputTokens,
            outputTokens: proposer.usage.outputTokens,
            calls: proposer.modelCalls,
          },
          inputs.pricing,
        )
      : []),
  ];
}

/** What the analysis of one iteration reads. */
interface AnalysisInputs {
  run: RunRecord;
  iteration: number;
  artefactIds: string[];
  /** The run's evaluation state before this iteration. */
  state: RunEvaluationState;
  /** The run's config with its recovery actions' lasting effects. */
  config: EvaluationConfig;
  artefacts: Artefact[];
  cheap: CheapModeResult[];
  judgements: JudgedArtefact[];
  /** The previous iteration's analysis (its calibration history), if there was one. */
  previous: GapReport | undefined;
  /** The pattern set that scored this iteration. */
  scoredWith: PatternSet;
  timestamp: string;
  /** Stops the model calls (the judge's re-run, the proposals) when the step must stop. */
  signal?: AbortSignal | undefined;
  /** The run's price table (the default, or its config's override). */
  pricing: PricingTable;
}

async function readInputs(
  deps: EvaluationDeps,
  run: RunRecord,
  record: IterationRecord,
  artefactIds: string[],
): Promise<AnalysisInputs> {
  const { iteration } = record;
  const state = RunEvaluationStateSchema.parse(run.evaluation ?? {});
  const [artefacts, cheapReport, judgements, previous, report] = await Promise.all([
    readEvaluationArtefacts(deps.artefacts, run.runId, iteration, artefactIds),
    readStoredJson(
      deps.artefacts,
      artefactKeys.iteration(run.runId, iteration, 'cheap.json'),
      CheapReportSchema,
    ),
    loadJudgements(deps.artefacts, run.runId, iteration, artefactIds),
    state.lastAnalysisKey === undefined
      ? undefined
      : readStoredJson(deps.artefacts, state.lastAnalysisKey, GapReportSchema),
    readResultReport(deps, run.runId, iteration),
  ]);
  const scoredWith = await deps.patternSets.get(run.projectId, cheapReport.patternSetVersion);
  if (!scoredWith)
    throw new NotFoundError(
      `pattern set v${cheapReport.patternSetVersion} of project ${run.projectId} is gone`,
    );
  return {
    run,
    iteration,
    artefactIds,
    state,
    config: effectiveConfig(run.config.evaluation, state),
    artefacts,
    cheap: cheapReport.results,
    judgements,
    previous,
    scoredWith,
    pricing: pricingFor(run.config.pricing),
    // When the iteration ended: Advance records it after this step, from result.json.
    timestamp: iterationResultOf(deps, record, report).endedAt,
  };
}

interface Judged {
  analysis: IterationAnalysis;
  /** The judge's verdicts the analysis used (after a re-run, the re-run's). */
  judgeRun: JudgeRun;
  judgeRerun: boolean;
  costUsd: number;
  /** The judge's calls for this iteration: the stored verdicts' and any re-run's. */
  judgeCalls: ModelCalls;
}

/**
 * The judge's verdicts, re-run by median when too many failed, and the analysis of them;
 * then, when recovery asks for a re-run of the judge (a shifted judge invalidates every
 * other figure), the re-run and the analysis again. The judge is re-run once at most.
 */
async function judgeAndAnalyse(deps: EvaluationDeps, inputs: AnalysisInputs): Promise<Judged> {
  const { run, config, artefacts } = inputs;
  const judgeModel = run.config.models.judge;
  const judged: Omit<Judged, 'analysis'> = {
    judgeRun: judgeRunOf(inputs.judgements, config, judgeModel),
    judgeRerun: false,
    costUsd: 0,
    judgeCalls: { model: judgeModel, inputTokens: 0, outputTokens: 0, calls: 0 },
  };
  judged.costUsd = judged.judgeRun.usage.costUsd;
  const countCalls = (usage: { inputTokens: number; outputTokens: number }, calls: number) => {
    judged.judgeCalls = {
      model: judgeModel,
      inputTokens: judged.judgeCalls.inputTokens + usage.inputTokens,
      outputTokens: judged.judgeCalls.outputTokens + usage.outputTokens,
      calls: judged.judgeCalls.calls + calls,
    };
  };
  countCalls(judged.judgeRun.usage, judged.judgeRun.calls);
  const rerun = async (ids: ReadonlySet<string>): Promise<void> => {
    if (!deps.model || judged.judgeRerun || ids.size === 0) return;
    const model = { model: deps.model, clock: deps.clock };
    const again = await rerunJudge(
      model,
      artefacts,
      judged.judgeRun,
      ids,
      config,
      judgeModel,
      inputs.signal,
      inputs.pricing,
    );
    judged.judgeRun = judgeRunOf(again.results, config, judgeModel);
    judged.costUsd += again.usage.costUsd;
    countCalls(again.usage, again.calls);
    judged.judgeRerun = true;
  };
  if (judged.judgeRun.unreliable) await rerun(new Set(inputs.artefactIds));

  const baseline = await regressionBaseline(deps, inputs);
  const analyse = (): IterationAnalysis => {
    const expensive = expensiveResults(judged.judgeRun);
    const { iteration, timestamp } = inputs;
    return analyseIteration(
      {
        iteration,
        timestamp,
        cheap: inputs.cheap,
        expensive,
        patternSet: inputs.scoredWith,
        history: inputs.previous?.history ?? [],
        state: inputs.state,
        ...(baseline
          ? {
              regressionBaseline: buildIterationMetrics(
                {
                  iteration,
                  timestamp,
                  cheap: baseline.cheap,
                  expensive,
                  patternSet: baseline.set,
                },
                config,
              ),
            }
          : {}),
      },
      config,
    );
  };
  let analysis = analyse();
  const judgeRerunAction = analysis.recovery.find((action) => action.type === 'rerun_judge');
  if (judgeRerunAction && !judged.judgeRerun) {
    await rerun(new Set(judgeRerunAction.artefactIds));
    if (judged.judgeRerun) analysis = analyse();
  }
  return { ...judged, analysis };
}

/**
 * When the pattern set changed since the previous iteration, regression asks what the
 * change did on these artefacts: the previous set re-scores them (their content may have
 * changed too, which is the agent's doing, not the patterns'). Its scores do not depend on
 * the judge: computed once, whatever re-runs.
 */
async function regressionBaseline(
  deps: EvaluationDeps,
  inputs: AnalysisInputs,
): Promise<{ set: PatternSet; cheap: CheapModeResult[] } | undefined> {
  const previousVersion = inputs.previous?.metrics.patternSetVersion;
  if (previousVersion === undefined || previousVersion === inputs.scoredWith.version)
    return undefined;
  const set = await deps.patternSets.get(inputs.run.projectId, previousVersion);
  return set ? { set, cheap: rescore(inputs.artefacts, set) } : undefined;
}

/**
 * Recovery's `rollback_patterns`: the version to return to, re-scoring the artefacts with
 * it for the log. The analysis stays that of the set that scored: it holds the regression
 * that asked for the rollback, and the history keeps it (convergence must not see a clean
 * window across a regression). Nothing when there is no rollback or the version is gone.
 */
async function restoreOnRollback(
  deps: EvaluationDeps,
  inputs: AnalysisInputs,
  analysis: IterationAnalysis,
): Promise<Restored | undefined> {
  const rollback = analysis.recovery.find((action) => action.type === 'rollback_patterns');
  if (!rollback) return undefined;
  const set = await deps.patternSets.get(inputs.run.projectId, rollback.toVersion);
  if (!set) return undefined;
  return { set, rescored: rescore(inputs.artefacts, set), description: rollback.description };
}

/** New provisional patterns, when the gap calls for them (model and miner). */
async function learn(
  deps: EvaluationDeps,
  inputs: AnalysisInputs,
  analysis: IterationAnalysis,
  judgeRun: JudgeRun,
): Promise<ProposeResult> {
  return proposePatterns(
    deps.model ? { model: deps.model } : {},
    {
      iteration: inputs.iteration,
      now: new Date(inputs.timestamp),
      gap: analysis.metrics.gap,
      pairs: pairResults(inputs.cheap, expensiveResults(judgeRun)).pairs,
      artefacts: inputs.artefacts,
      patterns: analysis.recovered.patterns,
      diversify: analysis.recovered.state.proposalDiversity,
      modelId: inputs.run.config.models.proposer,
      pricing: inputs.pricing,
      ...(inputs.signal ? { signal: inputs.signal } : {}),
    },
    inputs.config,
  );
}

function expensiveResults(run: Pick<JudgeRun, 'results'>): ExpensiveModeResult[] {
  return run.results.map((judged) => judged.result);
}

function rescore(artefacts: readonly Artefact[], set: PatternSet): CheapModeResult[] {
  // As the evaluate-cheap step scores them: the iteration's stories are one backlog.
  return evaluateBacklog(artefacts, compilePatternSet(set));
}
