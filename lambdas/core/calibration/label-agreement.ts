/**
 * How well the cheap mode's defects agree with human labels, criterion by criterion and for
 * "any syntactic defect" and "any defect". Every story and every label row is accounted
 * for: a story without a row and a row without a story are counted and named, not dropped.
 */
import { lowerScoreAuc, precision, recall } from './binary-metrics.js';
import { cohenKappa, confusionOf, type Confusion } from '../gap/kappa.js';
import type { Label, LabelFile, LabelRow, RenamedId } from './labels.js';
import { storySentence } from './story-sentence.js';
import { SYNTACTIC_CRITERIA, type QusCriterion } from '../schemas/qus.js';
import type { Artefact, CheapModeResult } from '../schemas/evaluation.js';

/** A kind of human-labelled defect (`conjunctions`), and how often the cheap mode caught it. */
export interface KindCount {
  kind: string;
  detected: number;
  missed: number;
}

export interface CriterionAgreement {
  /** A criterion, or `any syntactic defect` / `any defect`. */
  name: string;
  /** The labelled criteria it covers. */
  criteria: QusCriterion[];
  /** Matched stories with a label for at least one of `criteria`; what the counts sum to. */
  labelled: number;
  /** Matched stories with no label for any of `criteria`. */
  unlabelled: number;
  confusion: Confusion;
  kappa: number | null;
  precision: number | null;
  recall: number | null;
  /** AUC of the cheap gestalt as a defect score (lower = more defective). */
  auc: number | null;
  /** The labelled defects by kind, most frequent first. */
  kinds: KindCount[];
}

export interface LabelAgreement {
  /** The label file. */
  labels: string;
  matchBy: LabelFile['matchBy'];
  /** Stories scored, and how many of them have a label row. */
  stories: number;
  matched: number;
  /** Ids of the stories no label row names. */
  unlabelledStories: string[];
  /** Label rows that name no story: their line and key. */
  unmatchedRows: { line: number; key: string }[];
  /** Label rows whose id repeated an earlier row's, and the id they were matched by. */
  renamedIds: RenamedId[];
  criteria: CriterionAgreement[];
  /** Over the labelled syntactic criteria; `null` when the file labels none of them. */
  anySyntactic: CriterionAgreement | null;
  /** Over every labelled criterion. */
  anyDefect: CriterionAgreement;
}

/** A story that has a label row: its labels and the cheap mode's result. */
export interface MatchedStory {
  labels: LabelRow['labels'];
  cheap: CheapModeResult;
}

function rowKey(row: LabelRow, matchBy: LabelFile['matchBy']): string {
  return (matchBy === 'id' ? row.id : row.story) ?? '';
}

/**
 * The agreement over a set of criteria: for each story, the human says "defect" when any of
 * its labelled criteria in the set is a defect, the cheap mode when it reports a defect of
 * one of those same labelled criteria (a criterion nobody labelled is not held against it).
 */
export function agreementOver(
  name: string,
  criteria: readonly QusCriterion[],
  stories: readonly MatchedStory[],
): CriterionAgreement {
  const pairs: { actual: boolean; predicted: boolean; score: number }[] = [];
  const kinds = new Map<string, KindCount>();
  const prefix = criteria.length > 1;
  for (const story of stories) {
    const labelled = criteria
      .map((criterion) => [criterion, story.labels[criterion]] as const)
      .filter((entry): entry is readonly [QusCriterion, Label] => entry[1] !== undefined);
    if (labelled.length === 0) continue;
    const predicted = story.cheap.defects.some((defect) =>
      labelled.some(([criterion]) => criterion === defect.criterion),
    );
    const defects = labelled.flatMap(([criterion, label]) =>
      label.defect ? [prefix ? `${criterion}: ${label.kind}` : label.kind] : [],
    );
    for (const kind of defects) {
      const count = kinds.get(kind) ?? { kind, detected: 0, missed: 0 };
      count[predicted ? 'detected' : 'missed'] += 1;
      kinds.set(kind, count);
    }
    pairs.push({ actual: defects.length > 0, predicted, score: story.cheap.gestalt });
  }
  const confusion = confusionOf(pairs);
  const total = (kind: KindCount) => kind.detected + kind.missed;
  return {
    name,
    criteria: [...criteria],
    labelled: pairs.length,
    unlabelled: stories.length - pairs.length,
    confusion,
    kappa: cohenKappa(confusion),
    precision: precision(confusion),
    recall: recall(confusion),
    auc: lowerScoreAuc(pairs.map((pair) => ({ score: pair.score, positive: pair.actual }))),
    kinds: [...kinds.values()].sort(
      (a, b) => total(b) - total(a) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
    ),
  };
}

/**
 * Matches label rows to the scored stories (by id, or by the story's sentence) and measures
 * the cheap mode against them. `cheap` holds one result per artefact (by `artefactId`).
 *
 * @example
 * const agreement = measureLabelAgreement(artefacts, outcome.cheap, parseLabels(text, path));
 * agreement.anySyntactic?.kappa; // 0.41
 */
export function measureLabelAgreement(
  artefacts: readonly Artefact[],
  cheap: readonly CheapModeResult[],
  labels: LabelFile,
): LabelAgreement {
  const results = new Map(cheap.map((result) => [result.artefactId, result]));
  const rows = new Map(labels.rows.map((row) => [rowKey(row, labels.matchBy), row]));
  const used = new Set<LabelRow>();
  const matched: MatchedStory[] = [];
  const unlabelledStories: string[] = [];
  for (const artefact of artefacts) {
    const row = rows.get(labels.matchBy === 'id' ? artefact.id : storySentence(artefact));
    const result = results.get(artefact.id);
    if (row === undefined || result === undefined) {
      unlabelledStories.push(artefact.id);
      continue;
    }
    used.add(row);
    matched.push({ labels: row.labels, cheap: result });
  }
  const syntactic = labels.criteria.filter((criterion) => SYNTACTIC_CRITERIA.includes(criterion));
  return {
    labels: labels.what,
    matchBy: labels.matchBy,
    stories: artefacts.length,
    matched: matched.length,
    unlabelledStories,
    unmatchedRows: labels.rows
      .filter((row) => !used.has(row))
      .map((row) => ({ line: row.line, key: rowKey(row, labels.matchBy) })),
    renamedIds: [...labels.renamed],
    criteria: labels.criteria.map((criterion) => agreementOver(criterion, [criterion], matched)),
    anySyntactic:
      syntactic.length === 0 ? null : agreementOver('any syntactic defect', syntactic, matched),
    anyDefect: agreementOver('any defect', labels.criteria, matched),
  };
}
