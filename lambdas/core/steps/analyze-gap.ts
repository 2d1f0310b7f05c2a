import { artefactKeys } from '../shared/artefact-keys.js';
import { ArtefactExistsError } from '../errors.js';
import { loadIteration, loadRun } from './load.js';
import type { LoopState } from '../schemas/iteration-io.js';
import {
  RunEvaluationStateSchema,
  type RunEvaluationState,
} from '../schemas/evaluation-records.js';
import type { ArtefactStore } from '../../ports.js';
import { analyseIteration, type IterationAnalysis } from '../patterns/analyse-iteration.js';
import { buildIterationMetrics } from '../gap/iteration-metrics.js';
import { pairResults } from '../gap/pairing.js';
import { compilePatternSet } from '../cheap/compile.js';
import { evaluateCheap } from '../cheap/evaluate.js';
import { proposePatterns } from './proposing.js';
import type { ProposalReport } from '../patterns/proposals/merge.js';
import type {
  Artefact,
  CheapModeResult,
  ExpensiveModeResult,
  Pattern,
  PatternSet,
} from '../schemas/evaluation.js';
import type { EvaluationDeps } from './evaluation-deps.js';
import { loadJudgements, rerunJudge } from './judge-results.js';
import { judgeRunOf } from '../judge/verdict.js';
import { readEvaluationArtefacts, readStoredJson, requireEvaluation } from './evaluation-read.js';
import { effectiveConfig } from '../patterns/recovery/recover.js';
import {
  CheapReportSchema,
  GapReportSchema,
  type GapReport,
} from '../schemas/evaluation-documents.js';
import { publishNext, rolledBackPatterns } from './next-version.js';
import { summariseEvaluation } from '../patterns/evaluation-summary.js';

/**
 * The gap between the modes, and what the run learns from it, for one iteration:
 * 1. the judge's Map verdicts, re-run by median (`judge.reruns`) when unreliable;
 * 2. the analysis (`analyseIteration`): pattern outcomes and lifecycle, metrics,
 *    regression, divergence, recovery plan, component health, convergence;
 * 3. the recovery actions carried out: a rollback restores the previous pattern set and
 *    re-scores the cheap mode with it; a shifted judge is re-run; prunes, resets, merges,
 *    recalibration and the learning-rate / validation / diversity settings are applied;
 * 4. new provisional patterns proposed when the gap calls for it (model and miner);
 * 5. the next pattern-set version published (validated before the pointer moves);
 * 6. `gap.json`, `log.json` and, on convergence, the proof written; the iteration's
 *    summary and the run's evaluation state saved (the run first: the iteration's summary
 *    marks the step done, so a retry after it does nothing).
 */
export async function analyzeGap(deps: EvaluationDeps, input: LoopState): Promise<LoopState> {
  const { iteration, artefactIds } = requireEvaluation(input);
  const done: LoopState = { runId: input.runId, segment: input.segment, iteration };
  const [run, record] = await Promise.all([
    loadRun(deps.runs, input.runId),
    loadIteration(deps.runs, input.runId, iteration),
  ]);
  if (record.evaluation) return done;

  const state = RunEvaluationStateSchema.parse(run.evaluation ?? {});
  const config = effectiveConfig(run.config.evaluation, state);
  const judgeModel = run.config.models.judge;
  const [artefacts, cheapReport, judgements, previous] = await Promise.all([
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
  ]);
  const scoringSet = await deps.patternSets.get(run.projectId, cheapReport.patternSetVersion);
  if (!scoringSet)
    throw new Error(
      `pattern set v${cheapReport.patternSetVersion} of project ${run.projectId} is gone`,
    );

  // 1. The judge, re-run by median when too many evaluations failed.
  let judgeRun = judgeRunOf(judgements, config, judgeModel);
  let costUsd = judgeRun.usage.costUsd;
  let judgeRerun = false;
  const rerun = async (ids: ReadonlySet<string>): Promise<void> => {
    if (!deps.model || judgeRerun || ids.size === 0) return;
    const again = await rerunJudge(
      { model: deps.model, clock: deps.clock },
      artefacts,
      judgeRun,
      ids,
      config,
      judgeModel,
    );
    judgeRun = judgeRunOf(again.results, config, judgeModel);
    costUsd += again.usage.costUsd;
    judgeRerun = true;
  };
  if (judgeRun.unreliable) await rerun(new Set(artefactIds));

  // 2. The analysis, against the calibration history so far. When the pattern set changed
  // since the previous iteration, regression asks what the change did on these artefacts:
  // the previous set re-scores them (their content may have changed too, which is the
  // agent's doing, not the patterns').
  const timestamp = record.endedAt ?? record.plannedAt;
  const previousVersion = previous?.metrics.patternSetVersion;
  const previousSet =
    previousVersion === undefined || previousVersion === scoringSet.version
      ? undefined
      : await deps.patternSets.get(run.projectId, previousVersion);
  // The previous set's scores do not depend on the judge: computed once, whatever re-runs.
  const baselineCheap = previousSet ? rescore(artefacts, previousSet) : undefined;
  const cheap = cheapReport.results;
  const scoredWith = scoringSet;
  const analyse = (): IterationAnalysis => {
    const expensive = expensiveResults(judgeRun);
    return analyseIteration(
      {
        iteration,
        timestamp,
        cheap,
        expensive,
        patternSet: scoredWith,
        history: previous?.history ?? [],
        state,
        ...(previousSet && baselineCheap
          ? {
              regressionBaseline: buildIterationMetrics(
                { iteration, timestamp, cheap: baselineCheap, expensive, patternSet: previousSet },
                config,
              ),
            }
          : {}),
      },
      config,
    );
  };
  let analysis = analyse();

  // 3. Recovery: the judge first (a shifted judge invalidates every other figure).
  const judgeRerunAction = analysis.recovery.find((action) => action.type === 'rerun_judge');
  if (judgeRerunAction && !judgeRerun) {
    await rerun(new Set(judgeRerunAction.artefactIds));
    if (judgeRerun) analysis = analyse();
  }
  const rollback = analysis.recovery.find((action) => action.type === 'rollback_patterns');
  let rolledBackTo: number | undefined;
  let restoredSet: PatternSet | undefined;
  let rescored: CheapModeResult[] | undefined;
  if (rollback) {
    restoredSet = await deps.patternSets.get(run.projectId, rollback.toVersion);
    if (restoredSet) {
      // Re-evaluated with the restored set, for the log. The analysis stays that of the
      // set that scored: it holds the regression that asked for the rollback, and the
      // history keeps it (convergence must not see a clean window across a regression).
      rescored = rescore(artefacts, restoredSet);
      rolledBackTo = restoredSet.version;
    }
  }
  const applied = analysis.recovered;

  // 4. Learning, unless the set was just rolled back for harm done.
  let patterns: Pattern[] = applied.patterns;
  let proposal: ProposalReport | undefined;
  if (rolledBackTo === undefined) {
    const proposed = await proposePatterns(
      deps.model ? { model: deps.model } : {},
      {
        iteration,
        now: new Date(timestamp),
        gap: analysis.metrics.gap,
        pairs: pairResults(cheap, expensiveResults(judgeRun)).pairs,
        artefacts,
        patterns,
        diversify: applied.state.proposalDiversity,
        modelId: run.config.models.proposer,
      },
      config,
    );
    patterns = [...patterns, ...proposed.patterns];
    proposal = proposed.report;
    costUsd += proposed.report.usage.costUsd;
  }

  // 5. The next version: the learned set, or the restored one after a rollback.
  const nextVersion = await publishNext(deps, run, {
    iteration,
    scoredWith,
    patterns: rolledBackTo === undefined ? patterns : (restoredSet?.patterns ?? []),
    rolledBack: rolledBackTo === undefined ? [] : rolledBackPatterns(scoredWith, restoredSet),
    rolledBackTo,
    reason: rolledBackTo
      ? `iteration ${iteration}: rolled back to v${rolledBackTo} (${rollback?.description ?? 'regression'})`
      : `iteration ${iteration}: ${describeChanges(analysis, proposal)}`,
  });

  // 6. Evidence, then state.
  const logKey = artefactKeys.iteration(run.runId, iteration, 'log.json');
  const gapReport: GapReport = {
    iteration,
    patternSetVersion: scoredWith.version,
    nextPatternSetVersion: nextVersion,
    metrics: analysis.metrics,
    history: analysis.history,
  };
  const gapKey = artefactKeys.iteration(run.runId, iteration, 'gap.json');
  const actions = [
    ...(judgeRerun ? ['rerun_judge'] : []),
    ...(rolledBackTo === undefined ? [] : ['rollback_patterns']),
    ...applied.applied,
  ];
  await Promise.all([
    putFirst(deps.artefacts, gapKey, gapReport),
    putFirst(deps.artefacts, logKey, {
      ...analysis.log,
      actionsTaken: [...analysis.log.actionsTaken, ...applied.events],
      actionsCarriedOut: actions,
      proposals: proposal ?? { learned: false, reason: 'the pattern set was rolled back' },
      judgeRerun,
      ...(rolledBackTo === undefined ? {} : { rolledBackTo, rescored }),
      nextPatternSetVersion: nextVersion,
    }),
    analysis.convergence.proof
      ? putFirst(deps.artefacts, artefactKeys.convergenceProof(run.runId), {
          runId: run.runId,
          projectId: run.projectId,
          ...analysis.convergence.proof,
        })
      : undefined,
  ]);

  const converged = analysis.convergence.converged;
  const nextState: RunEvaluationState = {
    ...applied.state,
    lastAnalysedIteration: iteration,
    lastAnalysisKey: gapKey,
    patternSetVersion: nextVersion,
    // The latest verdict: a run that converged and then diverged is not converged now
    // (its first proof stays, with the iteration it was written for).
    converged,
    ...(converged && state.proofKey === undefined
      ? {
          convergedIteration: iteration,
          proofKey: artefactKeys.convergenceProof(run.runId),
          convergedAt: deps.clock.now().toISOString(),
        }
      : {}),
  };
  if (state.lastAnalysedIteration < iteration)
    await deps.runs.saveRun(
      { ...run, evaluation: nextState, updatedAt: deps.clock.now().toISOString() },
      run.version,
    );
  await deps.runs.saveIteration(
    {
      ...record,
      evaluation: summariseEvaluation({
        analysis,
        artefacts: artefactIds.length,
        judgeRerun,
        patternSetVersion: scoredWith.version,
        nextPatternSetVersion: nextVersion,
        patternsProposed: proposal?.proposed.length ?? 0,
        ...(rolledBackTo === undefined ? {} : { rolledBackTo }),
        actions,
        costUsd,
        logKey,
      }),
      artefacts: { ...record.artefacts, gap: gapKey, log: logKey },
    },
    record.version,
  );
  return done;
}

function expensiveResults(run: {
  results: { result: ExpensiveModeResult }[];
}): ExpensiveModeResult[] {
  return run.results.map((judged) => judged.result);
}

function rescore(artefacts: readonly Artefact[], set: PatternSet): CheapModeResult[] {
  const compiled = compilePatternSet(set);
  return artefacts.map((artefact) => evaluateCheap(artefact, compiled));
}

function describeChanges(
  analysis: IterationAnalysis,
  proposal: ProposalReport | undefined,
): string {
  const parts = [
    `${analysis.patternEvents.length} lifecycle events`,
    `${proposal?.proposed.length ?? 0} proposed`,
  ];
  return parts.join(', ');
}

/** Writes a JSON artefact once; a retried step's different bytes leave the first standing. */
async function putFirst(artefacts: ArtefactStore, key: string, value: unknown): Promise<void> {
  try {
    await artefacts.put(key, JSON.stringify(value, null, 2), 'application/json');
  } catch (error) {
    if (!(error instanceof ArtefactExistsError)) throw error;
  }
}
