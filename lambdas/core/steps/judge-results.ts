import type { ArtefactStore, Clock, ModelClient } from '../../ports.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { judgeArtefacts } from './judging.js';
import type { PricingTable } from '../judge/pricing.js';
import type { Artefact, ModelUsage } from '../schemas/evaluation.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import {
  mergeRerun,
  missingVerdict,
  type JudgeRun,
  type JudgedArtefact,
} from '../judge/verdict.js';
import { readOptionalDocument } from '../shared/optional-document.js';
import { StoredJudgementSchema } from '../schemas/evaluation-documents.js';

/**
 * Every Map item's verdict, in the order of `ids`. An item that stored nothing (its step
 * failed past its retries) counts as a failed evaluation, never as a score.
 */
export async function loadJudgements(
  artefacts: ArtefactStore,
  runId: string,
  iteration: number,
  ids: readonly string[],
): Promise<JudgedArtefact[]> {
  return Promise.all(
    ids.map(async (artefactId): Promise<JudgedArtefact> => {
      const stored = await readOptionalDocument(
        artefacts,
        artefactKeys.judgeResult(runId, iteration, artefactId),
        StoredJudgementSchema,
      );
      if (!stored) return missingVerdict(artefactId);
      return {
        result: stored.result,
        samples: stored.samples,
        ...(stored.spread === undefined ? {} : { spread: stored.spread }),
        highVariance: stored.highVariance,
      };
    }),
  );
}

/**
 * The design document's "run 3×, use the median" for the given artefacts: `judge.reruns`
 * samples each, the earlier pass's good samples reused. Returns every artefact's verdict
 * (the others unchanged) and what the re-run cost.
 */
export async function rerunJudge(
  deps: { model: ModelClient; clock: Clock },
  artefacts: readonly Artefact[],
  previous: JudgeRun,
  ids: ReadonlySet<string>,
  config: Pick<EvaluationConfig, 'judge'>,
  model: string,
  signal?: AbortSignal,
  pricing?: PricingTable,
): Promise<{ results: JudgedArtefact[]; usage: ModelUsage; calls: number }> {
  const chosen = artefacts.filter((artefact) => ids.has(artefact.id));
  const rerun = await judgeArtefacts(
    deps,
    chosen,
    config,
    { judge: model },
    {
      runs: config.judge.reruns,
      previous,
      ...(signal ? { signal } : {}),
      ...(pricing ? { pricing } : {}),
    },
  );
  return {
    results: mergeRerun(previous.results, rerun.results),
    usage: rerun.usage,
    calls: rerun.calls,
  };
}
