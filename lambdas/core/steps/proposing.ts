/**
 * Step 5 of the design document's iteration: "If gap > threshold: propose new patterns
 * using expensive_results reasoning". Two proposers, both producing provisional patterns
 * that must prove themselves through the lifecycle before they are committed:
 *
 * - the model, asked with the document's proposal prompt about the artefacts with the
 *   largest gaps (only when a model is given);
 * - the log-odds miner, over every artefact both modes scored, per `appliesTo` target.
 *
 * Their proposals are merged (the model's first, then the miner's strongest first),
 * checked against each other and the existing set (same id or terms; near-duplicates by
 * the analysis's Jaccard rule, `findNearDuplicates`), and capped per iteration. Every
 * proposal that is not added is reported with the reason.
 */
import type { ModelClient } from '../../ports.js';
import { exceeds } from '../shared/compare.js';
import type { ArtefactGap } from '../gap/pairing.js';
import { findNearDuplicates } from '../patterns/lifecycle/dedupe.js';
import { SCORING_STATUSES, targetOf } from '../cheap/compile.js';
import type { PricingTable } from '../judge/pricing.js';
import { ZERO_USAGE } from '../judge/usage.js';
import type { Artefact, ModelUsage, Pattern } from '../schemas/evaluation.js';
import { patternText } from '../patterns/artefact-text.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import {
  MINER_SOURCE,
  mineDiscriminativePhrases,
  type MinerSample,
} from '../patterns/miner/log-odds.js';
import { duplicateReason, findExactDuplicate } from '../patterns/pattern-identity.js';
import { PROPOSAL_SOURCE } from '../patterns/proposals/answer.js';
import { proposeWithModel } from './propose-with-model.js';

export interface ProposeDeps {
  /** The model proposer runs only with a model (and `input.modelId`). */
  model?: ModelClient;
}

export interface ProposeInput {
  iteration: number;
  now: Date;
  /** The iteration's gap (`iterationGap(pairs).gap`); `null` when nothing was paired. */
  gap: number | null;
  /** Both modes' verdicts per artefact (`pairResults(...).pairs`). */
  pairs: readonly ArtefactGap[];
  artefacts: readonly Artefact[];
  /** The current pattern set. */
  patterns: readonly Pattern[];
  /** Ask the model for categories the live patterns do not use yet (after a plateau). */
  diversify?: boolean;
  modelId?: string;
  signal?: AbortSignal;
  pricing?: PricingTable;
}

/** What proposal reads: its own options, the miner's, and the near-duplicate rule of patterns. */
export type ProposalConfig = Pick<EvaluationConfig, 'proposals' | 'miner' | 'patterns'>;

export type ProposalSource = typeof PROPOSAL_SOURCE | typeof MINER_SOURCE;

export interface ProposedEntry {
  patternId: string;
  source: ProposalSource;
  type: Pattern['type'];
  /** What the pattern matches: its keywords, phrases and `/regexes/`. */
  matches: string[];
}

export interface DroppedEntry {
  source: ProposalSource;
  reason: string;
  /** For a model proposal: the artefact it was about. */
  artefactId?: string;
  patternId?: string;
  /** For a mined phrase, or a model proposal that became a pattern. */
  phrase?: string;
  /** The model's last answer, when it was unusable. */
  raw?: string;
}

export interface ProposalReport {
  /** Whether the gap called for learning (see {@link shouldLearn}). */
  learned: boolean;
  /** Why learning ran or not, in one line. */
  reason: string;
  /** Why the model proposer did not run, when it did not. */
  modelSkipped?: string;
  /** The artefacts the model was asked about. */
  askedArtefacts: string[];
  proposed: ProposedEntry[];
  dropped: DroppedEntry[];
  /** Tokens and cost of the model's calls. */
  usage: ModelUsage;
  modelCalls: number;
}

export interface ProposeResult {
  /** The new provisional patterns, to append to the set. */
  patterns: Pattern[];
  report: ProposalReport;
}

/**
 * The document's "Gap > 0.5? → learn": |gap| above `proposals.gapThreshold` (floating-point
 * noise aside); never without a gap.
 *
 * @example
 * shouldLearn(0.6, config);  // true
 * shouldLearn(-0.6, config); // true (the cheap mode over-scores)
 * shouldLearn(0.5, config);  // false
 */
export function shouldLearn(
  gap: number | null,
  config: Pick<EvaluationConfig, 'proposals'>,
): boolean {
  return gap !== null && exceeds(Math.abs(gap), config.proposals.gapThreshold);
}

const matchesOf = (pattern: Pattern): string[] => [
  ...pattern.keywords,
  ...pattern.phrases,
  ...pattern.regexes.map((source) => `/${source}/`),
];

/** The miner's samples, per target, in target order. */
function minerSamples(
  pairs: readonly ArtefactGap[],
  artefacts: readonly Artefact[],
): [string, MinerSample[]][] {
  const byId = new Map(artefacts.map((artefact) => [artefact.id, artefact]));
  const byTarget = new Map<string, MinerSample[]>();
  for (const pair of pairs) {
    const artefact = byId.get(pair.artefactId);
    if (!artefact) continue;
    const target = targetOf(artefact);
    const samples = byTarget.get(target) ?? [];
    samples.push({
      artefactId: artefact.id,
      text: patternText(artefact),
      judgeScore: pair.expensive,
    });
    byTarget.set(target, samples);
  }
  return [...byTarget.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

interface Candidate {
  pattern: Pattern;
  source: ProposalSource;
  artefactId?: string;
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
  const report: ProposalReport = {
    learned: false,
    reason: '',
    askedArtefacts: [],
    proposed: [],
    dropped: [],
    usage: ZERO_USAGE,
    modelCalls: 0,
  };
  if (!shouldLearn(input.gap, config)) {
    report.reason =
      input.gap === null
        ? 'no gap: no artefact was scored by both modes'
        : `|gap| ${Math.abs(input.gap)} does not exceed ${config.proposals.gapThreshold}`;
    return { patterns: [], report };
  }
  report.learned = true;
  report.reason = `|gap| ${Math.abs(input.gap as number)} exceeds ${config.proposals.gapThreshold}`;

  const candidates: Candidate[] = [];
  if (deps.model === undefined) report.modelSkipped = 'no model is available';
  else if (input.modelId === undefined) report.modelSkipped = 'no model id was given';
  else {
    const fromModel = await proposeWithModel(
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
    report.askedArtefacts = fromModel.asked;
    report.usage = fromModel.usage;
    report.modelCalls = fromModel.calls;
    for (const rejection of fromModel.rejected)
      report.dropped.push({ source: PROPOSAL_SOURCE, ...rejection });
    for (const { artefactId, pattern } of fromModel.proposals)
      candidates.push({ pattern, source: PROPOSAL_SOURCE, artefactId });
  }

  for (const [target, samples] of minerSamples(input.pairs, input.artefacts)) {
    const mined = mineDiscriminativePhrases(samples, config, {
      existing: input.patterns,
      iteration: input.iteration,
      now: input.now,
      target,
    });
    for (const skipped of mined.skipped)
      report.dropped.push({ source: MINER_SOURCE, phrase: skipped.phrase, reason: skipped.reason });
    for (const pattern of mined.patterns) candidates.push({ pattern, source: MINER_SOURCE });
  }

  const kept = dedupeCandidates(candidates, input.patterns, config, report);
  const cap = config.proposals.maxNewPatterns;
  const added = kept.slice(0, cap);
  for (const candidate of kept.slice(cap))
    report.dropped.push(
      droppedEntry(candidate, `over the cap of ${cap} new patterns per iteration`),
    );
  report.proposed = added.map(({ pattern, source }) => ({
    patternId: pattern.id,
    source,
    type: pattern.type,
    matches: matchesOf(pattern),
  }));
  return { patterns: added.map((candidate) => candidate.pattern), report };
}

function droppedEntry(candidate: Candidate, reason: string): DroppedEntry {
  return {
    source: candidate.source,
    reason,
    patternId: candidate.pattern.id,
    phrase: matchesOf(candidate.pattern).join(' | '),
    ...(candidate.artefactId === undefined ? {} : { artefactId: candidate.artefactId }),
  };
}

/**
 * The candidates that duplicate nothing, in their order: exact duplicates (of the set or
 * of an earlier candidate) go first, then near-duplicate groups (the analysis's rule) that
 * hold an existing pattern lose all their candidates, and groups of candidates alone keep
 * their first.
 */
function dedupeCandidates(
  candidates: readonly Candidate[],
  existing: readonly Pattern[],
  config: Pick<EvaluationConfig, 'patterns'>,
  report: ProposalReport,
): Candidate[] {
  const distinct: Candidate[] = [];
  for (const candidate of candidates) {
    const duplicate = findExactDuplicate(candidate.pattern, [
      ...existing,
      ...distinct.map((kept) => kept.pattern),
    ]);
    if (duplicate) report.dropped.push(droppedEntry(candidate, duplicateReason(duplicate)));
    else distinct.push(candidate);
  }

  const live = existing.filter((pattern) => SCORING_STATUSES.has(pattern.status));
  const existingIds = new Set(live.map((pattern) => pattern.id));
  const order = new Map(distinct.map((candidate, index) => [candidate.pattern.id, index]));
  const groups = findNearDuplicates(
    [...live, ...distinct.map((candidate) => candidate.pattern)],
    config.patterns.dedupeJaccardThreshold,
  );
  const dropped = new Map<string, string>();
  for (const group of groups) {
    const members = [group.keepId, ...group.mergeIds];
    const existingMember = members.find((id) => existingIds.has(id));
    const candidateIds = members
      .filter((id) => order.has(id))
      .sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
    const survivor = existingMember ?? candidateIds[0];
    for (const id of candidateIds)
      if (id !== survivor) dropped.set(id, `near-duplicate of ${survivor as string}`);
  }
  return distinct.filter((candidate) => {
    const reason = dropped.get(candidate.pattern.id);
    if (reason !== undefined) report.dropped.push(droppedEntry(candidate, reason));
    return reason === undefined;
  });
}
