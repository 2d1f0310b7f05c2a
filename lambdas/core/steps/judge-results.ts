import type { ModelClient } from '../../ports.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import type { Clock } from '../../ports.js';
import {
  judgeArtefacts,
  sumUsage,
  summariseJudgeRun,
  type JudgeRun,
  type JudgedArtefact,
} from './judging.js';
import type { Artefact, ModelUsage } from '../schemas/evaluation.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type { ArtefactStore } from '../../ports.js';
import { readStoredJsonIfPresent } from './evaluation-read.js';
import { StoredJudgementSchema } from '../schemas/evaluation-documents.js';

const NO_USAGE: ModelUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

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
      const stored = await readStoredJsonIfPresent(
        artefacts,
        artefactKeys.judgeResult(runId, iteration, artefactId),
        StoredJudgementSchema,
      );
      if (stored)
        return {
          result: stored.result,
          samples: stored.samples,
          ...(stored.spread === undefined ? {} : { spread: stored.spread }),
          highVariance: stored.highVariance,
        };
      const error = 'the judge step stored no verdict (it failed past its retries)';
      return {
        result: { status: 'failed', artefactId, error, attempts: 1, usage: NO_USAGE },
        samples: [{ status: 'failed', error, attempts: 1, usage: NO_USAGE }],
        highVariance: false,
      };
    }),
  );
}

/** The Map's verdicts as one pass of the judge (what `judgeArtefacts` would have returned). */
export function asJudgeRun(
  results: JudgedArtefact[],
  config: Pick<EvaluationConfig, 'judge'>,
  model: string,
): JudgeRun {
  return summariseJudgeRun(
    {
      model,
      runs: 1,
      results,
      usage: sumUsage(results.map((judged) => judged.result.usage)),
      calls: results.reduce((total, judged) => total + judged.result.attempts, 0),
    },
    config,
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
): Promise<{ results: JudgedArtefact[]; usage: ModelUsage }> {
  const chosen = artefacts.filter((artefact) => ids.has(artefact.id));
  const rerun = await judgeArtefacts(
    deps,
    chosen,
    config,
    { judge: model },
    {
      runs: config.judge.reruns,
      previous,
    },
  );
  const byId = new Map(rerun.results.map((judged) => [judged.result.artefactId, judged]));
  return {
    results: previous.results.map((judged) => byId.get(judged.result.artefactId) ?? judged),
    usage: rerun.usage,
  };
}
