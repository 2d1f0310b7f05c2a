/**
 * Step 5 of the design document's iteration, the pure half: "If gap > threshold: propose
 * new patterns using expensive_results reasoning". Whether the gap calls for learning, the
 * log-odds miner over every artefact both modes scored (per `appliesTo` target), and the
 * merge of its proposals with the model's (asked by `steps/proposing.ts`): the model's
 * first, then the miner's strongest first, checked against each other and the existing
 * set (same id or terms; near-duplicates by the lifecycle's Jaccard rule,
 * `findNearDuplicates`) and capped per iteration. Every proposal that is not added is
 * reported with the reason.
 */
import { SCORING_STATUSES, targetOf } from '../../cheap/compile.js';
import type { ArtefactGap } from '../../gap/pairing.js';
import { ZERO_USAGE } from '../../judge/usage.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import type { Artefact, ModelUsage, Pattern } from '../../schemas/evaluation.js';
import { exceeds } from '../../shared/compare.js';
import { patternText } from '../artefact-text.js';
import { findNearDuplicates } from '../lifecycle/dedupe.js';
import { MINER_SOURCE, mineDiscriminativePhrases, type MinerSample } from '../miner/log-odds.js';
import { duplicateReason, findExactDuplicate } from '../pattern-identity.js';
import { PROPOSAL_SOURCE } from './answer.js';

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

/** What the model proposer brought, or why it did not run. */
export type ModelProposals =
  | { skipped: string }
  | {
      asked: string[];
      usage: ModelUsage;
      calls: number;
      proposals: { artefactId: string; pattern: Pattern }[];
      rejected: { artefactId: string; reason: string; raw?: string }[];
    };

/** What the proposals are made from. */
export interface ProposalSources {
  iteration: number;
  now: Date;
  /** Both modes' verdicts per artefact (`pairResults(...).pairs`). */
  pairs: readonly ArtefactGap[];
  artefacts: readonly Artefact[];
  /** The current pattern set. */
  patterns: readonly Pattern[];
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

/**
 * Why learning runs or not, in one line.
 *
 * @example
 * learningReason(0.7, config); // '|gap| 0.7 exceeds 0.5'
 */
export function learningReason(
  gap: number | null,
  config: Pick<EvaluationConfig, 'proposals'>,
): string {
  const threshold = config.proposals.gapThreshold;
  if (gap === null) return 'no gap: no artefact was scored by both modes';
  return shouldLearn(gap, config)
    ? `|gap| ${Math.abs(gap)} exceeds ${threshold}`
    : `|gap| ${Math.abs(gap)} does not exceed ${threshold}`;
}

/**
 * The report of an iteration that does not learn.
 *
 * @example
 * noLearning('|gap| 0.2 does not exceed 0.5').learned; // false
 */
export function noLearning(reason: string): ProposalReport {
  return {
    learned: false,
    reason,
    askedArtefacts: [],
    proposed: [],
    dropped: [],
    usage: ZERO_USAGE,
    modelCalls: 0,
  };
}

interface Candidate {
  pattern: Pattern;
  source: ProposalSource;
  artefactId?: string;
}

const matchesOf = (pattern: Pattern): string[] => [
  ...pattern.keywords,
  ...pattern.phrases,
  ...pattern.regexes.map((source) => `/${source}/`),
];

/**
 * The model's proposals and the miner's, merged into the iteration's new provisional
 * patterns, with the report of what was proposed, asked and dropped.
 *
 * @example
 * const { patterns, report } = mergeProposals(sources, fromModel, '|gap| 1.1 exceeds 0.5', config);
 */
export function mergeProposals(
  sources: ProposalSources,
  fromModel: ModelProposals,
  reason: string,
  config: ProposalConfig,
): ProposeResult {
  const report: ProposalReport = { ...noLearning(reason), learned: true };
  const candidates: Candidate[] = [];
  if ('skipped' in fromModel) report.modelSkipped = fromModel.skipped;
  else {
    report.askedArtefacts = fromModel.asked;
    report.usage = fromModel.usage;
    report.modelCalls = fromModel.calls;
    for (const rejection of fromModel.rejected)
      report.dropped.push({ source: PROPOSAL_SOURCE, ...rejection });
    for (const { artefactId, pattern } of fromModel.proposals)
      candidates.push({ pattern, source: PROPOSAL_SOURCE, artefactId });
  }
  candidates.push(...minedCandidates(sources, config, report));

  const kept = dedupeCandidates(candidates, sources.patterns, config, report);
  const cap = config.proposals.maxNewPatterns;
  for (const candidate of kept.slice(cap))
    report.dropped.push(
      droppedEntry(candidate, `over the cap of ${cap} new patterns per iteration`),
    );
  const added = kept.slice(0, cap);
  report.proposed = added.map(({ pattern, source }) => ({
    patternId: pattern.id,
    source,
    type: pattern.type,
    matches: matchesOf(pattern),
  }));
  return { patterns: added.map((candidate) => candidate.pattern), report };
}

/** The miner's proposals, per target in target order; its skipped phrases go to the report. */
function minedCandidates(
  sources: ProposalSources,
  config: ProposalConfig,
  report: ProposalReport,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const [target, samples] of minerSamples(sources.pairs, sources.artefacts)) {
    const mined = mineDiscriminativePhrases(samples, config, {
      existing: sources.patterns,
      iteration: sources.iteration,
      now: sources.now,
      target,
    });
    for (const skipped of mined.skipped)
      report.dropped.push({ source: MINER_SOURCE, phrase: skipped.phrase, reason: skipped.reason });
    for (const pattern of mined.patterns) candidates.push({ pattern, source: MINER_SOURCE });
  }
  return candidates;
}

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
 * of an earlier candidate) go first, then near-duplicate groups (the lifecycle's rule) that
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
