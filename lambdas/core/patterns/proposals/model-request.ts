/**
 * The model proposer, the pure half: which artefacts are worth asking about, what one
 * call asks, and what its answer makes. The calls are made by
 * `steps/propose-with-model.ts`, one artefact after another.
 */
import type { AskResult, AskSpec } from '../../judge/ask.js';
import type { PricingTable } from '../../judge/pricing.js';
import type { ArtefactGap } from '../../gap/pairing.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import type { ModelUsage, Pattern } from '../../schemas/evaluation.js';
import { exceeds } from '../../shared/compare.js';
import {
  parseProposalAnswer,
  proposalToPattern,
  type PatternProposalAnswer,
  type ProposalContext,
} from './answer.js';
import { buildProposalCorrection, type ProposalPrompt } from './prompt.js';

export type ModelProposalConfig = Pick<EvaluationConfig, 'proposals'>;

/** How each proposal call is made, beyond the config. */
export interface ProposalCallOptions {
  /** The model to ask (e.g. the run's proposer model). */
  modelId: string;
  signal?: AbortSignal;
  /** @default DEFAULT_PRICING */
  pricing?: PricingTable;
}

/** What asking about one artefact came to: a pattern, or why not. */
export type ProposalOutcome =
  | { ok: true; pattern: Pattern; usage: ModelUsage; calls: number }
  | { ok: false; reason: string; raw?: string; usage: ModelUsage; calls: number };

/**
 * The pairs worth a proposal: |gap| above `proposals.artefactGapThreshold`, largest first
 * (ties by artefact id), at most `proposals.maxPerIteration`.
 *
 * @example
 * selectForProposal(pairs, config).map((pair) => pair.artefactId); // ['story_3', 'story_1']
 */
export function selectForProposal(
  pairs: readonly ArtefactGap[],
  config: ModelProposalConfig,
): ArtefactGap[] {
  return pairs
    .filter((pair) => exceeds(Math.abs(pair.gap), config.proposals.artefactGapThreshold))
    .sort(
      (a, b) =>
        Math.abs(b.gap) - Math.abs(a.gap) ||
        (a.artefactId < b.artefactId ? -1 : a.artefactId > b.artefactId ? 1 : 0),
    )
    .slice(0, config.proposals.maxPerIteration);
}

/**
 * What one proposal call asks: the document's prompt, up to `proposals.maxTries` tries
 * while the answers are unusable, each within `proposals.timeoutSeconds`.
 *
 * @example
 * const asked = await askUntilValid(model, proposalRequest(prompt, config, { modelId }));
 */
export function proposalRequest(
  prompt: ProposalPrompt,
  config: ModelProposalConfig,
  options: ProposalCallOptions,
): AskSpec<PatternProposalAnswer> {
  return {
    modelId: options.modelId,
    system: prompt.system,
    user: prompt.user,
    maxTokens: config.proposals.maxTokens,
    timeoutMs: config.proposals.timeoutSeconds * 1000,
    maxTries: config.proposals.maxTries,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
    parse: parseProposalAnswer,
    correction: (problem) => buildProposalCorrection(problem, prompt.target),
  };
}

/**
 * The pattern one proposal call's answer makes, or why it makes none (an unusable answer,
 * a duplicate, a pattern that would not fire where it should).
 *
 * @example
 * proposalOutcome(asked, { direction: 'good', target, iteration: 5, now, existing, artefactId }, config);
 * // { ok: true, pattern: { id: 'p_frustrated_when', status: 'provisional', ... }, usage, calls: 1 }
 */
export function proposalOutcome(
  asked: AskResult<PatternProposalAnswer>,
  context: ProposalContext,
  config: ModelProposalConfig,
): ProposalOutcome {
  const { usage, attempts: calls } = asked;
  if (!asked.ok)
    return {
      ok: false,
      reason: asked.error,
      usage,
      calls,
      ...(asked.raw === undefined ? {} : { raw: asked.raw }),
    };
  const converted = proposalToPattern(asked.answer, context, config);
  return converted.ok
    ? { ok: true, pattern: converted.pattern, usage, calls }
    : { ok: false, reason: converted.reason, raw: asked.text, usage, calls };
}
