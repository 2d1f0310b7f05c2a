/**
 * How closely the cheap mode's QUS defects track the judge's, criterion by criterion: on
 * the user stories both modes scored and the judge gave per-criterion verdicts on, how
 * often each found a defect, how often both did, and Cohen's kappa between the two.
 */
import type { CriterionAgreement } from '../schemas/analysis/criteria.js';
import { STORY_LEVEL_CRITERIA } from '../schemas/qus.js';
import { cohenKappa, confusionOf } from './kappa.js';
import type { ArtefactGap } from './pairing.js';

export type { CriterionAgreement };

/**
 * Per QUS criterion the judge is asked (uniform and unique are the backlog's, which the
 * judge never sees), the two modes' defects compared; no rows when the judge gave no
 * per-criterion verdicts (changes, other documents, verdicts stored before QUS).
 *
 * @example
 * measureCriteriaAgreement(pairResults(cheap, expensive).pairs)[1];
 * // { criterion: 'atomic', stories: 4, judgeDefects: 2, cheapDefects: 1, both: 1, ..., kappa: 0.5 }
 */
export function measureCriteriaAgreement(pairs: readonly ArtefactGap[]): CriterionAgreement[] {
  const compared = pairs.flatMap((pair) =>
    pair.judge.criteria === undefined
      ? []
      : [
          {
            judge: new Set(
              pair.judge.criteria
                .filter((verdict) => verdict.verdict === 'defect')
                .map((verdict) => verdict.criterion),
            ),
            cheap: new Set(pair.cheapResult.defects.map((defect) => defect.criterion)),
          },
        ],
  );
  if (compared.length === 0) return [];
  return STORY_LEVEL_CRITERIA.map((criterion) => {
    // The judge is the reference: both = tp, judge only = fn, cheap only = fp, neither = tn.
    const confusion = confusionOf(
      compared.map((story) => ({
        actual: story.judge.has(criterion),
        predicted: story.cheap.has(criterion),
      })),
    );
    return {
      criterion,
      stories: compared.length,
      judgeDefects: confusion.tp + confusion.fn,
      cheapDefects: confusion.tp + confusion.fp,
      both: confusion.tp,
      judgeOnly: confusion.fn,
      cheapOnly: confusion.fp,
      neither: confusion.tn,
      kappa: cohenKappa(confusion),
    };
  });
}
