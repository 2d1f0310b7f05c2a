export { compilePatternSet, SCORING_STATUSES, targetOf } from './compile.js';
export type { CompileOptions } from './compile.js';
export { evaluateCheap } from './evaluate.js';
export { compileReferencePatterns, createReferenceMatcher } from './reference-matcher.js';
export {
  acceptanceCriteriaScore,
  hasUserValue,
  isAppropriateScope,
  scoreStory,
  technicalSpecificity,
  titleQuality,
} from './story-heuristics.js';
export type { HeuristicOutcome } from './story-heuristics.js';
export {
  diffSizeScore,
  gatesScore,
  isTestPath,
  scoreChange,
  spreadScore,
} from './change-heuristics.js';
export { diffStats } from './diff-stats.js';
export type { DiffStats } from './diff-stats.js';
export { planRegex } from './regex-plan.js';
export type { RegexPlan } from './regex-plan.js';
export { readStoryFields, storyText } from './story-fields.js';
export type { StoryFields } from './story-fields.js';
export type { CompiledPatterns, TargetMatcher, TechRules } from './types.js';
