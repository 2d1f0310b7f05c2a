/**
 * What the corpus and the pattern set hold: both matchers' agreement on every document
 * (a disagreement voids the run), the patterns fired, the text scored, and how the
 * regexes compile.
 */
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import { planRegex } from '../../lambdas/core/cheap/regex-plan.js';
import type { CompiledPatterns } from '../../lambdas/core/cheap/types.js';
import type { Artefact, PatternSet } from '../../lambdas/core/schemas/evaluation.js';

export interface CorpusFigures {
  /** Patterns fired, summed over the documents. */
  fired: number;
  /** Characters of title, description and acceptance criteria, summed over the documents. */
  characters: number;
  /** Documents with a QUS defect of the criterion (how realistic the story sentences are). */
  defects: Record<string, number>;
}

/** Scores every document with both matchers; throws when they disagree on one. */
export function checkAgreement(
  documents: readonly Artefact[],
  compiled: CompiledPatterns,
  reference: CompiledPatterns,
): CorpusFigures {
  let fired = 0;
  let characters = 0;
  const defects: Record<string, number> = {};
  for (const document of documents) {
    const fastResult = evaluateCheap(document, compiled);
    const naiveResult = evaluateCheap(document, reference);
    if (JSON.stringify(fastResult) !== JSON.stringify(naiveResult))
      throw new Error(`compiled and reference disagree on ${document.id}`);
    fired += fastResult.patternsMatched.length;
    for (const criterion of new Set(fastResult.defects.map((defect) => defect.criterion)))
      defects[criterion] = (defects[criterion] ?? 0) + 1;
    const content = (document as Extract<Artefact, { kind: 'document' }>).content as {
      title: string;
      description: string;
      acceptance_criteria: string[];
    };
    characters +=
      content.title.length +
      content.description.length +
      content.acceptance_criteria.join('').length;
  }
  return { fired, characters, defects };
}

export interface RegexFigures {
  regexes: number;
  /** Compiled to a set of exact strings. */
  regexesExact: number;
  /** Run only where a literal they need occurs. */
  regexesWithLiteral: number;
}

export function regexFigures(set: PatternSet): RegexFigures {
  const regexPlans = set.patterns.flatMap((pattern) => pattern.regexes).map(planRegex);
  const exact = regexPlans.filter((result) => result.ok && result.plan.exact !== undefined);
  const prefiltered = regexPlans.filter(
    (result) => result.ok && result.plan.exact === undefined && result.plan.literals.length > 0,
  );
  return {
    regexes: regexPlans.length,
    regexesExact: exact.length,
    regexesWithLiteral: prefiltered.length,
  };
}
