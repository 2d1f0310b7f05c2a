/**
 * Compiling a pattern set: validate every active pattern once, then build one matcher per
 * target (`change`, `document:<type>`) so that an artefact pass touches only the patterns
 * that apply to it.
 */
import type { AutomatonOptions } from './aho-corasick.js';
import { createCompiledMatcher } from './compiled-matcher.js';
import { planRegex, type RegexPlan } from './regex-plan.js';
import { escapeRegExp, hasLoneSurrogate } from './text.js';
import type { CompiledPatterns, MatcherFactory, TargetMatcher, TechRules } from './types.js';
import { InvalidInputError } from '../errors.js';
import { DEFAULT_STORY_HEURISTICS, type Pattern, type PatternSet } from '../schemas/evaluation.js';
import { DEFAULT_QUS_SETTINGS } from '../schemas/qus.js';

/** Statuses whose patterns score; `rejected` and `pruned` ones are kept only as history. */
export const SCORING_STATUSES: ReadonlySet<Pattern['status']> = new Set(['active', 'provisional']);

/** `change`, or `document:` and a document type. */
const TARGET = /^(change|document:\S+)$/;
const DOCUMENT_PREFIX = 'document:';

export type CompileOptions = AutomatonOptions;

/**
 * The `appliesTo` target of an artefact.
 *
 * @example
 * targetOf({ kind: 'document', documentType: 'user_story' }) // 'document:user_story'
 */
export function targetOf(
  artefact: { kind: 'change' } | { kind: 'document'; documentType: string },
): string {
  return artefact.kind === 'change' ? 'change' : `document:${artefact.documentType}`;
}

function compileTech(techValidation: PatternSet['techValidation']): TechRules {
  const extensions = techValidation.validExtensions
    .map((extension) => extension.replace(/^\./, ''))
    .filter((extension) => extension !== '')
    .map(escapeRegExp);
  // The design's `\w+/\w+\.(py|ts|tsx|js|jsx)`, with the set's own extension list. Python's
  // `\w` is Unicode-aware, hence the property classes; like the design, no trailing boundary
  // and case-sensitive.
  const word = '[\\p{L}\\p{N}_]+';
  const fileLikePath =
    extensions.length === 0
      ? /(?!)/
      : new RegExp(`${word}/${word}\\.(?:${extensions.join('|')})`, 'u');
  return { repoPaths: Object.entries(techValidation.validRepoPaths), fileLikePath };
}

/** Validates one scoring pattern; returns its regex plans, pushing a line per problem. */
function checkPattern(pattern: Pattern, at: string, issues: string[]): RegexPlan[] {
  for (const target of pattern.appliesTo)
    if (!TARGET.test(target))
      issues.push(`${at}.appliesTo: "${target}" is neither "change" nor "document:<type>"`);
  for (const field of ['keywords', 'phrases'] as const)
    pattern[field].forEach((text, i) => {
      if (hasLoneSurrogate(text))
        issues.push(`${at}.${field}[${i}]: holds half of a surrogate pair`);
    });
  const plans: RegexPlan[] = [];
  pattern.regexes.forEach((source, i) => {
    const result = planRegex(source);
    if (result.ok) plans.push(result.plan);
    else issues.push(`${at}.regexes[${i}] /${source}/: ${result.reason}`);
  });
  return plans;
}

/**
 * Compiles `set` with the matcher `factory`: shared by the production compiler and the
 * reference one, so that both validate and group patterns identically.
 *
 * @example
 * const compiled = compilePatternSetWith(set, createReferenceMatcher);
 */
export function compilePatternSetWith(set: PatternSet, factory: MatcherFactory): CompiledPatterns {
  const issues: string[] = [];
  const seen = new Map<string, number>();
  const byTarget = new Map<string, { patterns: Pattern[]; plans: RegexPlan[][] }>();

  set.patterns.forEach((pattern, index) => {
    const at = `patterns[${index}] (${pattern.id})`;
    const first = seen.get(pattern.id);
    if (first !== undefined) issues.push(`${at}.id: duplicate of patterns[${first}]`);
    else seen.set(pattern.id, index);
    if (!SCORING_STATUSES.has(pattern.status)) return;

    const plans = checkPattern(pattern, at, issues);
    for (const target of new Set(pattern.appliesTo)) {
      let group = byTarget.get(target);
      if (!group) byTarget.set(target, (group = { patterns: [], plans: [] }));
      group.patterns.push(pattern);
      group.plans.push(plans);
    }
  });
  if (issues.length > 0) throw new InvalidInputError(`pattern set v${set.version}`, issues);

  let change: TargetMatcher | undefined;
  const documents = new Map<string, TargetMatcher>();
  for (const [target, group] of byTarget) {
    const matcher = factory(group.patterns, group.plans);
    if (target === 'change') change = matcher;
    else documents.set(target.slice(DOCUMENT_PREFIX.length), matcher);
  }
  return {
    version: set.version,
    scoringWeights: set.scoringWeights,
    qus: set.qus ?? DEFAULT_QUS_SETTINGS,
    storyHeuristics: set.storyHeuristics ?? DEFAULT_STORY_HEURISTICS,
    tech: compileTech(set.techValidation),
    change,
    documents,
  };
}

/**
 * Compiles a pattern set for `evaluateCheap`: validates every active or provisional
 * pattern (a bad regex, an unknown `appliesTo` target or a duplicate id is refused with an
 * {@link InvalidInputError} naming the pattern and the reason) and builds one matcher per
 * target. Compile once per pattern-set version and reuse the result.
 *
 * @example
 * const compiled = compilePatternSet(PatternSetSchema.parse(json));
 * const result = evaluateCheap(artefact, compiled);
 */
export function compilePatternSet(set: PatternSet, options: CompileOptions = {}): CompiledPatterns {
  return compilePatternSetWith(set, (patterns, plans) =>
    createCompiledMatcher(patterns, plans, options),
  );
}
