import type { ModelClient } from '../../../ports.js';
import { artefactKeys } from '../../artefact-keys.js';
import type { Clock } from '../../../ports.js';
import { judgeArtefacts, type JudgeRun, type JudgedArtefact } from '../judge/judge.js';
import type { Artefact, EvaluationConfig, ModelUsage } from '../schemas.js';
import type { ArtefactStore } from '../../../ports.js';
import { readStoredJsonIfPresent } from './read.js';
import { StoredJudgementSchema } from './stored.js';

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
  config: Pick<EvaluationConfig, 'unreliableFailureRate'>,
  model: string,
): JudgeRun {
  const failed = results.filter((judged) => judged.result.status === 'failed').length;
  const failureRate = results.length === 0 ? 0 : failed / results.length;
  const usage = results.reduce(
    (total, judged) => ({
      inputTokens: total.inputTokens + judged.result.usage.inputTokens,
      outputTokens: total.outputTokens + judged.result.usage.outputTokens,
      costUsd: total.costUsd + judged.result.usage.costUsd,
    }),
    NO_USAGE,
  );
  const ok = results.flatMap((judged) =>
    judged.result.status === 'ok' ? [judged.result.gestalt] : [],
  );
  return {
    model,
    runs: 1,
    results,
    usage,
    calls: results.reduce((total, judged) => total + judged.result.attempts, 0),
    judged: results.length - failed,
    failed,
    failureRate,
    unreliable: failureRate > config.unreliableFailureRate,
    highVariance: results.some((judged) => judged.highVariance),
    ...(ok.length === 0
      ? {}
      : { averageGestalt: ok.reduce((total, score) => total + score, 0) / ok.length }),
  };
}

/**
 * The design document's "run 3×, use the median" for the given artefacts: `judgeReruns`
 * samples each, the earlier pass's good samples reused. Returns every artefact's verdict
 * (the others unchanged) and what the re-run cost.
 */
export async function rerunJudge(
  deps: { model: ModelClient; clock: Clock },
  artefacts: readonly Artefact[],
  previous: JudgeRun,
  ids: ReadonlySet<string>,
  config: EvaluationConfig,
  model: string,
): Promise<{ results: JudgedArtefact[]; usage: ModelUsage }> {
  const chosen = artefacts.filter((artefact) => ids.has(artefact.id));
  const rerun = await judgeArtefacts(
    deps,
    chosen,
    config,
    { judge: model },
    {
      runs: config.judgeReruns,
      previous,
    },
  );
  const byId = new Map(rerun.results.map((judged) => [judged.result.artefactId, judged]));
  return {
    results: previous.results.map((judged) => byId.get(judged.result.artefactId) ?? judged),
    usage: rerun.usage,
  };
}
