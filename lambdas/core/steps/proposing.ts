/**
 * Step 5 of the design document's iteration: "If gap > threshold: propose new patterns
 * using expensive_results reasoning". Two proposers, both producing provisional patterns
 * that must prove themselves through the lifecycle before they are committed: the model
 * (asked here, about the artefacts with the largest gaps, only when a model is given) and
 * the log-odds miner. Whether to learn, the mining and the merge of both are
 * patterns/proposals/merge.ts.
 */
import type { ModelClient } from '../../ports.js';
import type { PricingTable } from '../judge/pricing.js';
import {
  learningReason,
  mergeProposals,
  noLearning,
  shouldLearn,
  type ModelProposals,
  type ProposalConfig,
  type ProposalSources,
  type ProposeResult,
} from '../patterns/proposals/merge.js';
import { proposeWithModel } from './propose-with-model.js';

export interface ProposeDeps {
  /** The model proposer runs only with a model (and `input.modelId`). */
  model?: ModelClient;
}

export interface ProposeInput extends ProposalSources {
  /** The iteration's gap (`iterationGap(pairs).gap`); `null` when nothing was paired. */
  gap: number | null;
  /** Ask the model for categories the live patterns do not use yet (after a plateau). */
  diversify?: boolean;
  modelId?: string;
  signal?: AbortSignal;
  pricing?: PricingTable;
}

/**
 * Proposes provisional patterns when the iteration's gap calls for it.
 *
 * @example
 * const { patterns, report } = await proposePatterns(
 *   { model },
 *   { iteration: 5, now: clock.now(), gap: 1.1, pairs, artefacts, patterns: set.patterns, modelId: 'claude-sonnet-4-6' },
 *   config,
 * );
 * const next = { ...set, patterns: [...set.patterns, ...patterns] };
 */
export async function proposePatterns(
  deps: ProposeDeps,
  input: ProposeInput,
  config: ProposalConfig,
): Promise<ProposeResult> {
  const reason = learningReason(input.gap, config);
  if (!shouldLearn(input.gap, config)) return { patterns: [], report: noLearning(reason) };
  return mergeProposals(input, await askModel(deps, input, config), reason, config);
}

/** The model proposer's proposals, or why it did not run. */
async function askModel(
  deps: ProposeDeps,
  input: ProposeInput,
  config: ProposalConfig,
): Promise<ModelProposals> {
  if (deps.model === undefined) return { skipped: 'no model is available' };
  if (input.modelId === undefined) return { skipped: 'no model id was given' };
  return proposeWithModel(
    { model: deps.model },
    {
      modelId: input.modelId,
      iteration: input.iteration,
      now: input.now,
      pairs: input.pairs,
      artefacts: input.artefacts,
      patterns: input.patterns,
      ...(input.diversify ? { diversify: true } : {}),
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.pricing === undefined ? {} : { pricing: input.pricing }),
    },
    config,
  );
}
