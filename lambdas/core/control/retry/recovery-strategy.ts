/**
 * What the next attempt does differently after a failure (design section 3.5
 * `generate_recovery_strategy`), with the document's guidance texts:
 *
 * | failure             | strategy       | guidance                                                        |
 * | ------------------- | -------------- | --------------------------------------------------------------- |
 * | compilation_error   | isolated_fix   | Fix ONLY this compilation error, make no other changes          |
 * | test_failure        | test_first     | Read the failing test, understand what it expects, then modify ONLY the implementation to pass it |
 * | too_complex         | decompose      | Work on subtask 1 ONLY. Do not consider other subtasks.         |
 * | missing_context     | gather_context | Gather context FIRST, then plan implementation                  |
 * | unknown             | none           | the plain retry: the prompt already carries the failure         |
 *
 * A decomposed task continues with its next open subtask ("subtask k"). A story that cannot
 * be decomposed gets `gather_context` instead: planning from more context is what is left.
 * The texts (guidance, context queries, the section per strategy) are prompt templates:
 * `prompts/templates/recovery-*.md` and `context-query-*.md`.
 */
import { z } from 'zod';
import type { PromptTemplates } from '../../prompts/templates.js';
import type { UserStory } from '../../schemas/prd.js';
import { inlineCode } from '../quality/markdown.js';
import { SubtaskSchema, type Subtask } from '../../schemas/task.js';
import type { FailureClassification } from './classify-failure.js';
import { decomposeStory, nextOpenSubtask, type DecomposeOptionsInput } from './decompose.js';

export interface RecoveryGuidance {
  readonly isolatedFix: string;
  readonly testFirst: string;
  readonly decompose: (position: number) => string;
  readonly gatherContext: string;
}

/**
 * The document's guidance sentences: `prompts/templates/recovery-guidance-<kind>.md`.
 *
 * @example
 * recoveryGuidance(templates).decompose(2) // 'Work on subtask 2 ONLY. ...'
 */
export function recoveryGuidance(templates: PromptTemplates): RecoveryGuidance {
  return {
    isolatedFix: templates.render('recovery-guidance-isolated_fix', {}),
    testFirst: templates.render('recovery-guidance-test_first', {}),
    decompose: (position) => templates.render('recovery-guidance-decompose', { position }),
    gatherContext: templates.render('recovery-guidance-gather_context', {}),
  };
}

/** The document's three context queries, in its order. */
export const CONTEXT_QUERY_KINDS = [
  'get_call_graph',
  'find_references',
  'get_dependencies',
] as const;

export const ContextQuerySchema = z.object({
  kind: z.enum(CONTEXT_QUERY_KINDS),
  /** What to look up, when the failure named it. */
  target: z.string().nullable(),
  /** How an agent with a shell and an editor runs the query. */
  instruction: z.string(),
});
export type ContextQuery = z.infer<typeof ContextQuerySchema>;

const Why = { why: z.string() };

export const RecoveryStrategySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('isolated_fix'),
    focusFile: z.string().nullable(),
    errorLine: z.number().int().positive().nullable(),
    /** The compiler's message, with its code. */
    error: z.string(),
    guidance: z.string(),
    ...Why,
  }),
  z.object({
    kind: z.literal('test_first'),
    failingTest: z.string().nullable(),
    file: z.string().nullable(),
    guidance: z.string(),
    ...Why,
  }),
  z.object({
    kind: z.literal('decompose'),
    /** All subtasks; new ones are stored on the task record (`TaskRecord.subtasks`, by task-progress.ts). */
    subtasks: z.array(SubtaskSchema).min(2),
    focusSubtaskId: z.string(),
    guidance: z.string(),
    ...Why,
  }),
  z.object({
    kind: z.literal('gather_context'),
    queries: z.array(ContextQuerySchema).min(1),
    guidance: z.string(),
    ...Why,
  }),
]);
export type RecoveryStrategy = z.infer<typeof RecoveryStrategySchema>;

export interface RecoveryTask {
  story: Pick<UserStory, 'id' | 'title' | 'description' | 'acceptanceCriteria'>;
  subtasks?: readonly Subtask[] | undefined;
}

/** Where a strategy's words come from. */
interface Words {
  templates: PromptTemplates;
  guidance: RecoveryGuidance;
}

/**
 * The strategy for the next attempt at `task` after a failure classified as `classification`;
 * null for an unknown failure (retry as before).
 *
 * @example
 * recoveryStrategy({ kind: 'compilation_error', file: 'src/a.ts', line: 12, ... }, task, templates)
 * // { kind: 'isolated_fix', focusFile: 'src/a.ts', errorLine: 12, guidance: 'Fix ONLY this compilation error, ...' }
 */
export function recoveryStrategy(
  classification: FailureClassification,
  task: RecoveryTask,
  templates: PromptTemplates,
  options: DecomposeOptionsInput = {},
): RecoveryStrategy | null {
  const words: Words = { templates, guidance: recoveryGuidance(templates) };
  switch (classification.kind) {
    case 'compilation_error':
      return {
        kind: 'isolated_fix',
        focusFile: classification.file,
        errorLine: classification.line,
        error: classification.code
          ? `${classification.code}: ${classification.message}`
          : classification.message,
        guidance: words.guidance.isolatedFix,
        why: `compilation failed: ${classification.evidence}`,
      };
    case 'test_failure':
      return {
        kind: 'test_first',
        failingTest: classification.testName,
        file: classification.file,
        guidance: words.guidance.testFirst,
        why: `a test failed: ${classification.evidence}`,
      };
    case 'too_complex':
      return decompose(task, `too complex (${classification.evidence})`, words, options);
    case 'missing_context':
      return gatherContext(
        classification.subject,
        `context was missing: ${classification.evidence}`,
        words,
      );
    case 'unknown':
      return null;
  }
}

function decompose(
  task: RecoveryTask,
  why: string,
  words: Words,
  options: DecomposeOptionsInput,
): RecoveryStrategy {
  if (task.subtasks && task.subtasks.length >= 2) {
    const open = nextOpenSubtask({ subtasks: [...task.subtasks] });
    if (open)
      return {
        kind: 'decompose',
        subtasks: [...task.subtasks],
        focusSubtaskId: open.subtask.id,
        guidance: words.guidance.decompose(open.position),
        why: `${why}; the task is already decomposed`,
      };
  }
  const split = decomposeStory(task.story, options);
  if (!split.decomposable) return gatherContext(null, `${why}; ${split.reason}`, words);
  const [first] = split.subtasks;
  return {
    kind: 'decompose',
    subtasks: split.subtasks,
    focusSubtaskId: first?.id ?? `${task.story.id}.1`,
    guidance: words.guidance.decompose(1),
    why: `${why}; split by ${split.method === 'criteria' ? 'acceptance criteria' : 'description'}`,
  };
}

function gatherContext(
  subject: string | null,
  why: string,
  { templates, guidance }: Words,
): RecoveryStrategy {
  return {
    kind: 'gather_context',
    queries: [
      {
        kind: 'get_call_graph',
        target: null,
        instruction: templates.render('context-query-get_call_graph', {}),
      },
      {
        kind: 'find_references',
        target: subject,
        instruction: templates.render('context-query-find_references', {
          target: subject ? inlineCode(subject) : undefined,
        }),
      },
      {
        kind: 'get_dependencies',
        target: null,
        instruction: templates.render('context-query-get_dependencies', {}),
      },
    ],
    guidance: guidance.gatherContext,
    why,
  };
}

/**
 * The strategy as a section of the next prompt: `prompts/templates/recovery-<kind>.md`.
 *
 * @example
 * renderRecoverySection(strategy, templates) // '## Recovery: fix one compilation error\n\n...'
 */
export function renderRecoverySection(
  strategy: RecoveryStrategy,
  templates: PromptTemplates,
): string {
  const common = { why: strategy.why, guidance: strategy.guidance };
  switch (strategy.kind) {
    case 'isolated_fix':
      return `${templates.render('recovery-isolated_fix', {
        ...common,
        file: strategy.focusFile ? inlineCode(strategy.focusFile) : undefined,
        line: strategy.errorLine,
        error: inlineCode(strategy.error),
      })}\n`;
    case 'test_first':
      return `${templates.render('recovery-test_first', {
        ...common,
        failingTest: strategy.failingTest ? inlineCode(strategy.failingTest) : undefined,
        file: strategy.file ? inlineCode(strategy.file) : undefined,
      })}\n`;
    case 'decompose':
      return `${templates.render('recovery-decompose', {
        ...common,
        subtasks: strategy.subtasks
          .map((subtask, index) => subtaskLines(subtask, index, strategy.focusSubtaskId))
          .join('\n'),
      })}\n`;
    case 'gather_context':
      return `${templates.render('recovery-gather_context', {
        ...common,
        queries: strategy.queries
          .map((query, index) => `${index + 1}. ${query.instruction}`)
          .join('\n'),
      })}\n`;
  }
}

/** The focused subtask in bold, with its criteria as a checklist. */
function subtaskLines(subtask: Subtask, index: number, focusId: string): string {
  const focus = subtask.id === focusId;
  const done = subtask.status === 'complete' ? ' (done)' : '';
  const line = `${index + 1}. ${focus ? '**' : ''}${subtask.id}: ${subtask.title}${focus ? '** ← this one' : ''}${done}`;
  if (!focus) return line;
  return [line, ...subtask.acceptanceCriteria.map((criterion) => `   - [ ] ${criterion}`)].join(
    '\n',
  );
}
