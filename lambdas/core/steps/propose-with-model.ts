/**
 * Pattern proposals from a language model: for the artefacts the cheap mode got most
 * wrong, the design document's proposal prompt, one call each. This module makes the
 * calls; which artefacts, what is asked and what an answer makes are
 * patterns/proposals/ (model-request.ts, prompt.ts, answer.ts).
 *
 * As in the judge, retries are layered: the adapter retries an unavailable model, the
 * asking retries an unusable answer (not JSON, wrong shape) up to `proposals.maxTries`
 * times, showing the model what was wrong. A model that stays unavailable or refuses the
 * request ends that artefact's proposal, recorded as rejected, never thrown; the other
 * artefacts are still asked. An error that is not a `RalphError` is a defect, not an
 * answer, and propagates.
 *
 * Artefacts are asked one after another, and each accepted proposal joins the patterns
 * the next prompt lists and the next duplicate check reads: two artefacts missing the same
 * signal then yield one pattern and a second, different one.
 */
import type { ModelClient } from '../../ports.js';
import type { ArtefactGap } from '../gap/pairing.js';
import { askUntilValid } from './ask-until-valid.js';
import { ZERO_USAGE, sumUsage } from '../judge/usage.js';
import type { Artefact, ModelUsage, Pattern } from '../schemas/evaluation.js';
import {
  proposalOutcome,
  proposalRequest,
  selectForProposal,
  type ModelProposalConfig,
  type ProposalCallOptions,
  type ProposalOutcome,
} from '../patterns/proposals/model-request.js';
import { buildProposalPrompt } from '../patterns/proposals/prompt.js';

export interface ModelProposerDeps {
  model: ModelClient;
}

export interface ModelProposalInput extends ProposalCallOptions {
  /** The iteration the patterns are learned in. */
  iteration: number;
  now: Date;
  /** Both modes' verdicts per artefact (`pairResults(...).pairs`). */
  pairs: readonly ArtefactGap[];
  /** The artefacts the pairs are about (for their text and `appliesTo` target). */
  artefacts: readonly Artefact[];
  /** The current pattern set. */
  patterns: readonly Pattern[];
  /** Ask for categories the live patterns do not use yet (see `ProposalPromptInput`). */
  diversify?: boolean;
}

export interface ModelProposalRejection {
  artefactId: string;
  reason: string;
  /** The last answer, when the model gave one (for the report, or S3). */
  raw?: string;
}

export interface ModelProposalResult {
  /** Provisional patterns, in the order the artefacts were asked. */
  patterns: Pattern[];
  /** The same patterns, each with the artefact it was proposed for. */
  proposals: { artefactId: string; pattern: Pattern }[];
  rejected: ModelProposalRejection[];
  /** Tokens and cost of every call. */
  usage: ModelUsage;
  /** Model calls made (retries included). */
  calls: number;
  /** The artefacts asked, largest |gap| first. */
  asked: string[];
}

/** Asks about one artefact: its prompt, the tries, the pattern its answer makes. */
async function proposeFor(
  deps: ModelProposerDeps,
  input: ModelProposalInput,
  config: ModelProposalConfig,
  pair: ArtefactGap,
  artefact: Artefact,
  existing: readonly Pattern[],
): Promise<ProposalOutcome> {
  const prompt = buildProposalPrompt(
    {
      artefact,
      judge: pair.judge,
      cheap: pair.cheapResult,
      patterns: existing,
      ...(input.diversify ? { diversify: true } : {}),
    },
    config,
  );
  const asked = await askUntilValid(deps.model, proposalRequest(prompt, config, input));
  return proposalOutcome(
    asked,
    {
      direction: prompt.direction,
      target: prompt.target,
      iteration: input.iteration,
      now: input.now,
      existing,
      artefactId: artefact.id,
    },
    config,
  );
}

/**
 * Asks the model for one pattern per selected artefact (see `selectForProposal`).
 * Never throws for one artefact's failure: it is recorded in `rejected` with the reason
 * and the last raw answer.
 *
 * @example
 * const { patterns, rejected, usage } = await proposeWithModel(
 *   { model },
 *   { modelId: 'claude-sonnet-4-6', iteration: 5, now: clock.now(), pairs, artefacts, patterns: set.patterns },
 *   config,
 * );
 */
export async function proposeWithModel(
  deps: ModelProposerDeps,
  input: ModelProposalInput,
  config: ModelProposalConfig,
): Promise<ModelProposalResult> {
  const artefactsById = new Map(input.artefacts.map((artefact) => [artefact.id, artefact]));
  const selected = selectForProposal(input.pairs, config);
  const proposals: { artefactId: string; pattern: Pattern }[] = [];
  const rejected: ModelProposalRejection[] = [];
  let usage = ZERO_USAGE;
  let calls = 0;

  for (const pair of selected) {
    const artefact = artefactsById.get(pair.artefactId);
    if (!artefact) {
      rejected.push({ artefactId: pair.artefactId, reason: 'the artefact was not given' });
      continue;
    }
    const outcome = await proposeFor(deps, input, config, pair, artefact, [
      ...input.patterns,
      ...proposals.map((proposal) => proposal.pattern),
    ]);
    usage = sumUsage([usage, outcome.usage]);
    calls += outcome.calls;
    if (outcome.ok) proposals.push({ artefactId: pair.artefactId, pattern: outcome.pattern });
    else
      rejected.push({
        artefactId: pair.artefactId,
        reason: outcome.reason,
        ...(outcome.raw === undefined ? {} : { raw: outcome.raw }),
      });
  }
  return {
    patterns: proposals.map((proposal) => proposal.pattern),
    proposals,
    rejected,
    usage,
    calls,
    asked: selected.map((pair) => pair.artefactId),
  };
}
