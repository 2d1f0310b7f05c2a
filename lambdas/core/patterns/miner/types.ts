/** The miner's inputs and results (`log-odds.ts` re-exports them). */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import type { Pattern } from '../../schemas/evaluation.js';
import type { PatternDirection } from '../proposals/prompt.js';

export interface MinerSample {
  artefactId: string;
  /** The artefact's pattern text (see `patternText`). */
  text: string;
  judgeScore: number;
}

export interface MinerContext {
  /** Every pattern of the current set (duplicates of any status, coverage by live ones). */
  existing: readonly Pattern[];
  iteration: number;
  now: Date;
  /** The `appliesTo` target of the samples. @default 'document:user_story' */
  target?: string;
}

/** The miner's rules, and the proposals' initial weight for what it finds. */
export type MinerConfig = Pick<EvaluationConfig, 'miner' | 'proposals'>;

export interface PhraseCounts {
  /** High (low) artefacts containing the phrase. */
  high: number;
  low: number;
  /** Artefacts of any score containing it. */
  background: number;
  /** High, low and all artefacts. */
  highSamples: number;
  lowSamples: number;
  backgroundSamples: number;
}

export interface LogOdds {
  /** δ: positive when the phrase leans high. */
  delta: number;
  z: number;
}

export interface MinedPhrase {
  /** The n-gram or marker; for an anchored form, its regex as `/source/`. */
  phrase: string;
  /** For an anchored form: its regex source, and the marker it anchors. */
  regex?: string;
  marker?: string;
  type: PatternDirection;
  z: number;
  delta: number;
  /** High and low artefacts containing the phrase, and how many there were. */
  highDocs: number;
  lowDocs: number;
  highSamples: number;
  lowSamples: number;
}

export interface MinerSkip {
  phrase: string;
  z: number;
  reason: string;
}

export interface MinerResult {
  /** Provisional patterns, strongest |z| first (then longer, then alphabetical). */
  patterns: Pattern[];
  /** The statistics behind each pattern, in the same order. */
  phrases: MinedPhrase[];
  /** Significant, supported phrases that were not kept, and why. */
  skipped: MinerSkip[];
  highSamples: number;
  lowSamples: number;
}
