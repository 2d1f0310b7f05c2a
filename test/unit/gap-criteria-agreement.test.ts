import { describe, expect, it } from 'vitest';
import { measureCriteriaAgreement } from '../../lambdas/core/gap/criteria-agreement.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import type { Defect } from '../../lambdas/core/schemas/qus.js';
import { makeCheapResult, makeJudgedResult, qusVerdicts } from '../support/evaluation.js';

/** A story both modes scored: the judge's defects (criterion → evidence) and the cheap mode's. */
function story(id: string, judge: Record<string, string> | undefined, cheap: Defect[]) {
  return {
    cheap: makeCheapResult({ artefactId: id, defects: cheap }),
    judge: makeJudgedResult({
      artefactId: id,
      ...(judge === undefined ? {} : { criteria: qusVerdicts(judge) }),
    }),
  };
}

function agreementOf(stories: ReturnType<typeof story>[]) {
  return measureCriteriaAgreement(
    pairResults(
      stories.map((s) => s.cheap),
      stories.map((s) => s.judge),
    ).pairs,
  );
}

describe('Function: measureCriteriaAgreement', () => {
  it("counts, per criterion the judge is asked, both modes' defects and their kappa", () => {
    // Act
    const rows = agreementOf([
      story('s1', { atomic: 'and reduce congestion' }, [
        { criterion: 'atomic', evidence: 'and reduce' },
      ]),
      story('s2', { atomic: 'AI and connected', minimal: '(AVs)' }, [
        { criterion: 'minimal', evidence: '(AVs)' },
      ]),
      story('s3', {}, [{ criterion: 'atomic', evidence: 'or' }]),
      story('s4', {}, [{ criterion: 'unique', evidence: 'near duplicate of s1' }]),
    ]);

    // Assess
    expect(rows.map((row) => row.criterion)).toEqual([
      'well-formed',
      'atomic',
      'minimal',
      'conceptually-sound',
      'problem-oriented',
      'unambiguous',
      'full-sentence',
    ]);
    const atomic = rows.find((row) => row.criterion === 'atomic');
    expect(atomic).toEqual({
      criterion: 'atomic',
      stories: 4,
      judgeDefects: 2,
      cheapDefects: 2,
      both: 1,
      judgeOnly: 1,
      cheapOnly: 1,
      neither: 1,
      kappa: 0,
    });
    expect(rows.find((row) => row.criterion === 'minimal')).toMatchObject({
      judgeDefects: 1,
      cheapDefects: 1,
      both: 1,
      neither: 3,
      kappa: 1,
    });
    // Neither mode found a defect: kappa is undefined, not 1.
    expect(rows.find((row) => row.criterion === 'full-sentence')).toMatchObject({
      judgeDefects: 0,
      cheapDefects: 0,
      neither: 4,
      kappa: null,
    });
  });

  it('leaves out stories the judge gave no verdicts on, and has no rows without any', () => {
    expect(
      agreementOf([story('s1', undefined, [{ criterion: 'atomic', evidence: 'and' }])]),
    ).toEqual([]);
    const rows = agreementOf([
      story('s1', undefined, [{ criterion: 'atomic', evidence: 'and' }]),
      story('s2', { atomic: 'and' }, []),
    ]);
    expect(rows[1]).toMatchObject({
      criterion: 'atomic',
      stories: 1,
      judgeDefects: 1,
      cheapDefects: 0,
    });
  });
});
