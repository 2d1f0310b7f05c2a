import type { StepCall } from './deps.js';
import { z } from 'zod';
import { artefactKeys } from '../shared/artefact-keys.js';
import { ArtefactExistsError, InvalidInputError } from '../errors.js';
import { loadRun } from './load.js';
import { judgeArtefacts } from './judging.js';
import { pricingFor } from '../judge/pricing.js';
import type { EvaluationDeps } from './evaluation-deps.js';
import { readEvaluationArtefacts, readStoredJson } from './evaluation-read.js';
import { StoredJudgementSchema, type StoredJudgement } from '../schemas/evaluation-documents.js';

/** One item of the judge's Map: pointers only. */
export const JudgeArtefactInputSchema = z.object({
  runId: z.string().min(1),
  iteration: z.number().int().positive(),
  artefactId: z.string().min(1),
});
export type JudgeArtefactInput = z.infer<typeof JudgeArtefactInputSchema>;

export interface JudgeArtefactOutput {
  artefactId: string;
  status: 'ok' | 'failed';
}

/**
 * Judges one artefact once (the Map runs these `judge.concurrency` at a time) and stores the
 * verdict with its samples, which a re-run by median reuses. The first stored verdict
 * stands: a retried item returns it without asking the model again. A judge that never
 * gave a usable answer is recorded as failed, its last raw answer kept beside it.
 */
export async function judgeArtefact(
  deps: EvaluationDeps,
  input: JudgeArtefactInput,
  { signal }: StepCall = {},
): Promise<JudgeArtefactOutput> {
  const { runId, iteration, artefactId } = input;
  const key = artefactKeys.judgeResult(runId, iteration, artefactId);
  if (await deps.artefacts.exists(key))
    return outputOf(await readStoredJson(deps.artefacts, key, StoredJudgementSchema), artefactId);
  if (!deps.model)
    throw new InvalidInputError('evaluation', [
      'the expensive mode needs a model: set ANTHROPIC_API_KEY (or use the local stack, which serves the offline judge)',
    ]);

  const [run, [artefact]] = await Promise.all([
    loadRun(deps.runs, runId),
    readEvaluationArtefacts(deps.artefacts, runId, iteration, [artefactId]),
  ]);
  const judged = await judgeArtefacts(
    { model: deps.model, clock: deps.clock },
    artefact ? [artefact] : [],
    run.config.evaluation,
    { judge: run.config.models.judge },
    { pricing: pricingFor(run.config.pricing), ...(signal ? { signal } : {}) },
  );
  const [one] = judged.results;
  if (!one) throw new InvalidInputError(key, [`artefact ${artefactId} was not found`]);

  let result = one.result;
  if (result.status === 'failed' && one.rawAnswer !== undefined) {
    const rawKey = artefactKeys.judgeRawAnswer(runId, iteration, artefactId, 1);
    await deps.artefacts.put(rawKey, one.rawAnswer, 'text/plain');
    result = { ...result, rawAnswerKey: rawKey };
  }
  const stored: StoredJudgement = {
    model: judged.model,
    result,
    samples: one.samples.map((sample) =>
      sample.status === 'ok'
        ? sample
        : { status: 'failed', error: sample.error, attempts: sample.attempts, usage: sample.usage },
    ),
    ...(one.spread === undefined ? {} : { spread: one.spread }),
    highVariance: one.highVariance,
  };
  try {
    await deps.artefacts.put(key, JSON.stringify(stored, null, 2), 'application/json');
  } catch (error) {
    // A concurrent delivery of the same item stored its verdict first: that one stands.
    if (!(error instanceof ArtefactExistsError)) throw error;
    return outputOf(await readStoredJson(deps.artefacts, key, StoredJudgementSchema), artefactId);
  }
  return outputOf(stored, artefactId);
}

function outputOf(stored: StoredJudgement, artefactId: string): JudgeArtefactOutput {
  return { artefactId, status: stored.result.status };
}
