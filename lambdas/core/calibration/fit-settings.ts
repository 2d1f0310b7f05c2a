/**
 * Fitting the cheap detectors' settings (`qus` of a pattern set) to labelled stories: a
 * small deterministic coordinate search. Each round tries, one setting at a time, every
 * value of a fixed grid, and keeps a value only when it is strictly better: a higher
 * Cohen's kappa for "any syntactic defect", then a higher AUC of the gestalt. Same input,
 * same settings, on any machine.
 */
import { measureLabelAgreement, type LabelAgreement } from './label-agreement.js';
import type { LabelFile } from './labels.js';
import { compilePatternSet } from '../cheap/compile.js';
import { evaluateBacklog } from '../cheap/evaluate-backlog.js';
import { InvalidInputError } from '../errors.js';
import { DEFAULT_QUS_SETTINGS, QUS_CRITERIA, type QusSettings } from '../schemas/qus.js';
import type { Artefact, PatternSet } from '../schemas/evaluation.js';

/** Labelled stories, scored as one backlog, with the pattern set they are scored with. */
export interface LabelledBacklog {
  artefacts: readonly Artefact[];
  labels: LabelFile;
}

/** What the search maximises, in order: kappa, then AUC (`null` ranks below any number). */
export interface FitScore {
  kappa: number | null;
  auc: number | null;
}

export interface FitProgress {
  round: number;
  /** The setting being tried (`detectors`, `penalties.atomic`, …). */
  setting: string;
  /** Candidates scored so far, in all rounds. */
  evaluated: number;
  best: FitScore;
}

export interface FitResult {
  start: QusSettings;
  fitted: QusSettings;
  startScore: FitScore;
  fittedScore: FitScore;
  /** Rounds run (the last one changed nothing, unless the round limit stopped it). */
  rounds: number;
  evaluated: number;
}

export const MAX_ROUNDS = 3;
/** Figures closer than this are equal (sums of fractions differ in their last bits). */
const EPSILON = 1e-12;
export const PENALTY_GRID = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];
export const SIMILARITY_GRID = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];
export const SHARE_GRID = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** One setting the search moves: its name and its candidate values from the current settings. */
interface Dimension {
  setting: string;
  candidates(current: QusSettings): QusSettings[];
}

const DIMENSIONS: readonly Dimension[] = [
  ...QUS_CRITERIA.map((criterion) => ({
    setting: `detectors.${criterion}`,
    candidates: (current: QusSettings) => [
      {
        ...current,
        detectors: current.detectors.includes(criterion)
          ? current.detectors.filter((on) => on !== criterion)
          : QUS_CRITERIA.filter((on) => on === criterion || current.detectors.includes(on)),
      },
    ],
  })),
  {
    setting: 'atomicScope',
    candidates: (current) => [
      { ...current, atomicScope: current.atomicScope === 'means' ? 'role-and-means' : 'means' },
    ],
  },
  {
    setting: 'nearDuplicateSimilarity',
    candidates: (current) =>
      SIMILARITY_GRID.map((value) => ({ ...current, nearDuplicateSimilarity: value })),
  },
  {
    setting: 'uniformShare',
    candidates: (current) => SHARE_GRID.map((value) => ({ ...current, uniformShare: value })),
  },
  {
    setting: 'defaultPenalty',
    candidates: (current) => PENALTY_GRID.map((value) => ({ ...current, defaultPenalty: value })),
  },
  // A criterion's penalty matters only while its detector runs.
  ...QUS_CRITERIA.map((criterion) => ({
    setting: `penalties.${criterion}`,
    candidates: (current: QusSettings) =>
      current.detectors.includes(criterion)
        ? PENALTY_GRID.map((value) => ({
            ...current,
            penalties: { ...current.penalties, [criterion]: value },
          }))
        : [],
  })),
];

/** The same settings give the same key, whatever order their penalties were set in. */
function settingsKey(settings: QusSettings): string {
  const penalties = Object.entries(settings.penalties).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify({ ...settings, penalties });
}

/**
 * Whether `a` beats `b`: a higher kappa, or the same kappa and a higher AUC.
 *
 * @example
 * isBetter({ kappa: 0.5, auc: 0.6 }, { kappa: 0.5, auc: 0.55 }); // true
 */
export function isBetter(a: FitScore, b: FitScore): boolean {
  const rank = (value: number | null) => value ?? Number.NEGATIVE_INFINITY;
  const [kappaA, kappaB] = [rank(a.kappa), rank(b.kappa)];
  if (kappaA > kappaB + EPSILON) return true;
  if (kappaB > kappaA + EPSILON) return false;
  return rank(a.auc) > rank(b.auc) + EPSILON;
}

/**
 * The cheap mode's agreement with the labels under `settings` (the set's own `qus` replaced).
 *
 * @example
 * agreementWith(backlog, set, { ...set.qus, atomicScope: 'means' }).anySyntactic?.kappa;
 */
export function agreementWith(
  backlog: LabelledBacklog,
  patternSet: PatternSet,
  settings: QusSettings,
): LabelAgreement {
  const cheap = evaluateBacklog(
    backlog.artefacts,
    compilePatternSet({ ...patternSet, qus: settings }),
  );
  return measureLabelAgreement(backlog.artefacts, cheap, backlog.labels);
}

/**
 * Fits the `qus` settings of `patternSet` on `train`, starting from the set's own.
 * Refused when the labels have no syntactic criterion (there is nothing to maximise).
 *
 * @example
 * const { fitted } = fitSettings(train, patternSet, (progress) => show(progress));
 */
export function fitSettings(
  train: LabelledBacklog,
  patternSet: PatternSet,
  onProgress: (progress: FitProgress) => void = () => undefined,
): FitResult {
  const scores = new Map<string, FitScore>();
  const score = (settings: QusSettings): FitScore => {
    const key = settingsKey(settings);
    const known = scores.get(key);
    if (known) return known;
    const { anySyntactic } = agreementWith(train, patternSet, settings);
    if (anySyntactic === null)
      throw new InvalidInputError(train.labels.what, [
        'labels no syntactic criterion (well-formed, atomic, minimal): calibration maximises the agreement on "any syntactic defect"',
      ]);
    const fresh = { kappa: anySyntactic.kappa, auc: anySyntactic.auc };
    scores.set(key, fresh);
    return fresh;
  };
  const start = patternSet.qus ?? DEFAULT_QUS_SETTINGS;
  let best = { settings: start, score: score(start) };
  let rounds = 0;
  for (let changed = true; changed && rounds < MAX_ROUNDS;) {
    rounds += 1;
    changed = false;
    for (const dimension of DIMENSIONS)
      for (const candidate of dimension.candidates(best.settings)) {
        const candidateScore = score(candidate);
        if (isBetter(candidateScore, best.score)) {
          best = { settings: candidate, score: candidateScore };
          changed = true;
        }
        onProgress({
          round: rounds,
          setting: dimension.setting,
          evaluated: scores.size,
          best: best.score,
        });
      }
  }
  return {
    start,
    fitted: best.settings,
    startScore: score(start),
    fittedScore: best.score,
    rounds,
    evaluated: scores.size,
  };
}
