/**
 * Every prompt template the code renders, with the placeholders the code provides to it.
 * A template is `templates/<name>.md`; loading checks the directory against this list both
 * ways (no template missing, no file unused) and each file against its placeholders, so a
 * typo in a template fails when the templates load, naming the file and the placeholder.
 * The list also types `render`: the code must pass every placeholder named here.
 */
import type { TemplateValue } from './render.js';

export const PROMPT_TEMPLATES = {
  /** The whole prompt of one iteration (lambdas/core/prompt.ts). */
  iteration: [
    'iteration',
    'storyId',
    'storyTitle',
    'priority',
    'attempt',
    'retried',
    'description',
    'acceptanceCriteria',
    'notes',
    'project',
    'projectDescription',
    'branch',
    'storiesRemaining',
    'iterationsLeft',
    'storyList',
    'storyCount',
    'passingCount',
    'codebasePatterns',
    'patternsOmitted',
    'learningSections',
    'recentProgress',
    'lastFailure',
    'failedIteration',
    'failedStoryId',
    'failedOutcome',
    'failedSummary',
    'failureDetail',
    'detailBelow',
    'evidenceRef',
    'controlSections',
    'gates',
    'completePromise',
  ],

  // An investigate run's prompts (investigate/investigation-prompt.ts): an analysis pass,
  // the one correction of a fix that broke a gate, and the error group both show.
  investigation: [
    'taskId',
    'pass',
    'maxPasses',
    'errorSection',
    'runContext',
    'seed',
    'seedPass',
    'seedConfidence',
    'seedRootCause',
    'seedReasoning',
    'seedFiles',
    'seedNextSteps',
    'seedProblem',
    'branch',
    'gates',
    'analysisPath',
  ],
  'investigation-correction': [
    'taskId',
    'errorSection',
    'rootCause',
    'confidence',
    'fixSummary',
    'changedFiles',
    'broken',
    'gateFailures',
    'branch',
    'gates',
    'analysisPath',
  ],
  'investigation-error': [
    'title',
    'level',
    'source',
    'culprit',
    'detail',
    'counts',
    'seenBetween',
    'inAppFrames',
    'otherFrames',
    'framesOmitted',
    'tags',
    'webLink',
    'apiLink',
  ],

  // Loop control's plan sections (control/plan-control.ts): each starts with its `## title`.
  'section-role': ['role', 'instructions'],
  'section-subtask': ['position', 'count', 'subtasks'],
  'section-remediation': ['blocking', 'plural', 'gates'],
  'section-anti_pattern': ['level', 'summary'],
  'section-prevention': ['instruction', 'source', 'subject', 'guidance'],
  'section-time_budget': ['minutes', 'iterations'],
  'section-review': ['last', 'findings'],

  // What was learned before (learning/render-learning.ts): run hints, project rules, the
  // cross-loop registry's patterns.
  'learning-hints': ['hints'],
  'learning-rules': ['rules'],
  'learning-patterns': ['patterns'],

  // The role's paragraph (control/roles/select-role.ts), one per role.
  'role-planner': [],
  'role-implementer': [],
  'role-tester': [],
  'role-reviewer': [],
  'role-debugger': [],
  'role-architect': [],

  // The recovery section per strategy, and its guidance (control/retry/recovery-strategy.ts).
  'recovery-isolated_fix': ['why', 'file', 'line', 'error', 'guidance'],
  'recovery-test_first': ['why', 'failingTest', 'file', 'guidance'],
  'recovery-decompose': ['why', 'subtasks', 'guidance'],
  'recovery-gather_context': ['why', 'queries', 'guidance'],
  'recovery-guidance-isolated_fix': [],
  'recovery-guidance-test_first': [],
  'recovery-guidance-decompose': ['position'],
  'recovery-guidance-gather_context': [],
  'context-query-get_call_graph': [],
  'context-query-find_references': ['target'],
  'context-query-get_dependencies': [],

  // One failed gate's subsection, and per gate kind its title and guidance
  // (control/quality/remediation.ts).
  'remediation-gate': [
    'gate',
    'title',
    'blocking',
    'guidance',
    'timedOut',
    'seconds',
    'signal',
    'exitCode',
    'output',
  ],
  'remediation-typecheck': [],
  'remediation-tests': [],
  'remediation-lint': [],
  'remediation-security': [],
  'remediation-other': [],
  'remediation-typecheck-title': [],
  'remediation-tests-title': [],
  'remediation-lint-title': [],
  'remediation-security-title': [],
  'remediation-other-title': [],
} as const satisfies Record<string, readonly string[]>;

export type PromptTemplateName = keyof typeof PROMPT_TEMPLATES;

/** The values a template is rendered with: every placeholder it declares, each may be unset. */
export type PromptValues<Name extends PromptTemplateName> = {
  readonly [Placeholder in (typeof PROMPT_TEMPLATES)[Name][number]]: TemplateValue;
};
