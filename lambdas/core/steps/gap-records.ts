/**
 * What analyze-gap leaves behind for one iteration: `gap.json` (the metrics and the
 * calibration history the next iteration reads), `log.json` (the design document's
 * iteration log with what the step carried out), the convergence proof when it holds, the
 * run's evaluation state and the iteration's summary. The run is saved first: the
 * iteration's summary marks the step done, so a retry after it does nothing.
 */
import { StoredConvergenceProofSchema } from '../schemas/analysis/checks.js';
import { StoredIterationLogSchema } from '../schemas/analysis/log.js';
import type { ArtefactStore } from '../../ports.js';
import { ArtefactExistsError } from '../errors.js';
import type { IterationAnalysis } from '../patterns/analyse-iteration.js';
import { summariseEvaluation } from '../patterns/evaluation-summary.js';
import type { ProposalReport } from '../patterns/proposals/merge.js';
import type { GapReport } from '../schemas/evaluation-documents.js';
import { describeConvergence } from '../gap/convergence-words.js';
import type { RunEvaluationState } from '../schemas/evaluation-records.js';
import type { CheapModeResult, PatternSet } from '../schemas/evaluation.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { RunRecord } from '../schemas/run.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { receiptWith } from '../costs/receipt.js';
import { pricingFor } from '../judge/pricing.js';
import type { CostLine } from '../schemas/cost-receipt.js';
import type { EvaluationDeps } from './evaluation-deps.js';

/** A rollback carried out: the set returned to, and the artefacts re-scored with it. */
export interface Restored {
  set: PatternSet;
  rescored: CheapModeResult[];
  /** Why, in the recovery table's words. */
  description: string;
}

export interface AnalysisOutcome {
  run: RunRecord;
  record: IterationRecord;
  artefactIds: readonly string[];
  /** The run's evaluation state before this iteration. */
  state: RunEvaluationState;
  scoredWith: PatternSet;
  analysis: IterationAnalysis;
  judgeRerun: boolean;
  restored: Restored | undefined;
  /** The proposer's report; absent after a rollback (nothing was learned). */
  proposal: ProposalReport | undefined;
  nextVersion: number;
  costUsd: number;
  /** The judge's and proposer's lines for the iteration's cost receipt. */
  costLines: readonly CostLine[];
}

/**
 * Writes the iteration's evidence, then saves the run's evaluation state and the
 * iteration's summary.
 *
 * @example
 * await recordAnalysis(deps, { run, record, artefactIds, state, scoredWith, analysis, ... });
 */
export async function recordAnalysis(
  deps: EvaluationDeps,
  outcome: AnalysisOutcome,
): Promise<void> {
  const { run, record, analysis, nextVersion, restored } = outcome;
  const { iteration } = record;
  const gapKey = artefactKeys.iteration(run.runId, iteration, 'gap.json');
  const logKey = artefactKeys.iteration(run.runId, iteration, 'log.json');
  const rolledBackTo = restored?.set.version;
  const actions = [
    ...(outcome.judgeRerun ? ['rerun_judge'] : []),
    ...(rolledBackTo === undefined ? [] : ['rollback_patterns']),
    ...analysis.recovered.applied,
  ];
  await writeEvidence(deps.artefacts, outcome, { gapKey, logKey, actions });

  if (outcome.state.lastAnalysedIteration < iteration)
    await deps.runs.saveRun(
      {
        ...run,
        evaluation: nextRunState(outcome, gapKey, () => deps.clock.now().toISOString()),
        updatedAt: deps.clock.now().toISOString(),
      },
      run.version,
    );
  await deps.runs.saveIteration(
    {
      ...record,
      evaluation: summariseEvaluation({
        analysis,
        artefacts: outcome.artefactIds.length,
        judgeRerun: outcome.judgeRerun,
        patternSetVersion: outcome.scoredWith.version,
        nextPatternSetVersion: nextVersion,
        patternsProposed: outcome.proposal?.proposed.length ?? 0,
        ...(rolledBackTo === undefined ? {} : { rolledBackTo }),
        actions,
        costUsd: outcome.costUsd,
        logKey,
        stableIterations: run.config.evaluation.convergence.stableIterations,
      }),
      artefacts: { ...record.artefacts, gap: gapKey, log: logKey },
      receipt: receiptWith(
        record,
        ['judge', 'proposer'],
        outcome.costLines,
        pricingFor(run.config.pricing),
      ),
    },
    record.version,
  );
}

/** `gap.json`, `log.json` and, on convergence, the proof; each written once. */
async function writeEvidence(
  artefacts: ArtefactStore,
  outcome: AnalysisOutcome,
  keys: { gapKey: string; logKey: string; actions: string[] },
): Promise<void> {
  const { run, analysis, nextVersion, restored } = outcome;
  const gapReport: GapReport = {
    iteration: outcome.record.iteration,
    patternSetVersion: outcome.scoredWith.version,
    nextPatternSetVersion: nextVersion,
    metrics: analysis.metrics,
    history: analysis.history,
    criteria: analysis.criteria,
  };
  await Promise.all([
    putFirst(artefacts, keys.gapKey, gapReport),
    putFirst(
      artefacts,
      keys.logKey,
      StoredIterationLogSchema.parse({
        ...analysis.log,
        actionsTaken: [...analysis.log.actionsTaken, ...analysis.recovered.events],
        actionsCarriedOut: keys.actions,
        proposals: outcome.proposal ?? {
          learned: false,
          reason: 'the pattern set was rolled back',
        },
        judgeRerun: outcome.judgeRerun,
        ...(restored === undefined
          ? {}
          : { rolledBackTo: restored.set.version, rescored: restored.rescored }),
        nextPatternSetVersion: nextVersion,
      }),
    ),
    analysis.convergence.proof
      ? putFirst(
          artefacts,
          artefactKeys.convergenceProof(run.runId),
          StoredConvergenceProofSchema.parse({
            runId: run.runId,
            projectId: run.projectId,
            ...analysis.convergence.proof,
          }),
        )
      : undefined,
  ]);
}

/** The run's evaluation state after this iteration. */
function nextRunState(
  outcome: AnalysisOutcome,
  gapKey: string,
  now: () => string,
): RunEvaluationState {
  const { analysis, state, run } = outcome;
  const converged = analysis.convergence.converged;
  return {
    ...analysis.recovered.state,
    lastAnalysedIteration: outcome.record.iteration,
    lastAnalysisKey: gapKey,
    patternSetVersion: outcome.nextVersion,
    // The latest verdict: a run that converged and then diverged is not converged now
    // (its first proof stays, with the iteration it was written for).
    converged,
    lastConvergence: describeConvergence(
      analysis.convergence,
      run.config.evaluation.convergence.stableIterations,
    ),
    ...(converged && state.proofKey === undefined
      ? {
          convergedIteration: outcome.record.iteration,
          proofKey: artefactKeys.convergenceProof(run.runId),
          convergedAt: now(),
        }
      : {}),
  };
}

/** Writes a JSON artefact once; a retried step's different bytes leave the first standing. */
async function putFirst(artefacts: ArtefactStore, key: string, value: unknown): Promise<void> {
  try {
    await artefacts.put(key, JSON.stringify(value, null, 2), 'application/json');
  } catch (error) {
    if (!(error instanceof ArtefactExistsError)) throw error;
  }
}
