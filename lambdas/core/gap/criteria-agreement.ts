/**
 * How closely the cheap mode's QUS defects track the judge's, criterion by criterion: on
 * the user stories both modes scored and the judge gave per-criterion verdicts on, how
 * often each found a defect, how often both did, and Cohen's kappa between the two.
 */
import type { CriterionAgreement } from '../schemas/analysis/criteria.js';
import { STORY_LEVEL_CRITERIA } from '../schemas/qus.js';
import { cohenKappa } from './kappa.js';
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
    const judge = compared.map((story) => story.judge.has(criterion));
    const cheap = compared.map((story) => story.cheap.has(criterion));
    const count = (wanted: (judged: boolean, found: boolean) => boolean): number =>
      judge.filter((judged, index) => wanted(judged, cheap[index] as boolean)).length;
    return {
      criterion,
      stories: compared.length,
      judgeDefects: count((judged) => judged),
      cheapDefects: count((_, found) => found),
      both: count((judged, found) => judged && found),
      judgeOnly: count((judged, found) => judged && !found),
      cheapOnly: count((judged, found) => !judged && found),
      neither: count((judged, found) => !judged && !found),
      kappa: cohenKappa(judge, cheap),
    };
  });
}
