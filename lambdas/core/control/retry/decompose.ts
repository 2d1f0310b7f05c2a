/**
 * Deterministic decomposition of a story into subtasks (design section 3.5 `decompose_task`):
 *
 * - Two or more real acceptance criteria: one subtask per criterion, in order. The
 *   boilerplate criteria ("Typecheck passes", "Tests pass", "Verify in browser...") hold
 *   for the whole story, so they go with the last subtask, which finishes it.
 * - One real criterion (or none): the description is split into its sentences, else its
 *   clauses (`;`, `and`), after dropping a user-story frame ("As a user, I want to ...
 *   so that ..."); the criteria go with the last part.
 * - Fewer than two parts: the story cannot be decomposed, and the answer says why.
 *
 * Subtask ids are `<story id>.1` … `<story id>.n`; every subtask starts open.
 */
import { z } from 'zod';
import type { UserStory } from '../../schemas/prd.js';
import type { Subtask } from '../../schemas/task.js';

/** Criteria every Ralph story carries; they are checked by the gates, not implemented. */
export const DEFAULT_BOILERPLATE_PATTERNS = [
  '^(all )?(typecheck|type-check|type check|types|tsc|build|lint|linting|tests?|unit tests|the tests|ci|checks?)( \\w+)? (pass|passes|passing|succeeds?|is clean|are clean|clean|green)\\b',
  '^(npm|pnpm|yarn|cargo|go|make) [\\w:. -]+ (pass|passes|succeeds?)\\b',
  '^verify (it )?in (the )?browser',
  '^no (new )?(type|lint|typescript) (errors|warnings)',
] as const;

export const DecomposeOptionsSchema = z.object({
  /** Case-insensitive regular expressions for boilerplate criteria. */
  boilerplatePatterns: z.array(z.string()).default([...DEFAULT_BOILERPLATE_PATTERNS]),
  /** Subtask titles are cut to this many characters (the criteria keep the full text). */
  maxTitleLength: z.number().int().min(20).default(100),
  /** Description parts with fewer words are not a piece of work ("and more"). */
  minPartWords: z.number().int().positive().default(3),
});
export type DecomposeOptions = z.infer<typeof DecomposeOptionsSchema>;
export type DecomposeOptionsInput = z.input<typeof DecomposeOptionsSchema>;

export type Decomposition =
  | { decomposable: true; subtasks: Subtask[]; method: 'criteria' | 'description' }
  | { decomposable: false; reason: string };

/**
 * Whether a criterion is boilerplate (checked by the gates) rather than a piece of the story.
 *
 * @example
 * isBoilerplateCriterion('Typecheck passes') // true
 */
export function isBoilerplateCriterion(
  criterion: string,
  options: DecomposeOptionsInput = {},
): boolean {
  const { boilerplatePatterns } = DecomposeOptionsSchema.parse(options);
  const text = criterion.trim().replace(/\.$/, '');
  return boilerplatePatterns.some((pattern) => new RegExp(pattern, 'i').test(text));
}

/**
 * The story's criteria that are not boilerplate, in order.
 *
 * @example
 * realCriteria(['Add a priority column', 'Typecheck passes']) // ['Add a priority column']
 */
export function realCriteria(
  criteria: readonly string[],
  options: DecomposeOptionsInput = {},
): string[] {
  return criteria.filter((criterion) => !isBoilerplateCriterion(criterion, options));
}

/**
 * The story as subtasks, or why it cannot be split.
 *
 * @example
 * decomposeStory(story) // { decomposable: true, method: 'criteria', subtasks: [{ id: 'US-002.1', ... }, ...] }
 */
export function decomposeStory(
  story: Pick<UserStory, 'id' | 'title' | 'description' | 'acceptanceCriteria'>,
  options: DecomposeOptionsInput = {},
): Decomposition {
  const settings = DecomposeOptionsSchema.parse(options);
  const real = realCriteria(story.acceptanceCriteria, settings);
  const boilerplate = story.acceptanceCriteria.filter((c) => !real.includes(c));

  if (real.length >= 2) {
    const groups = real.map((criterion, index) =>
      index === real.length - 1 ? [criterion, ...boilerplate] : [criterion],
    );
    return {
      decomposable: true,
      method: 'criteria',
      subtasks: real.map((criterion, index) =>
        subtask(story.id, index, criterion, groups[index] ?? [criterion], settings),
      ),
    };
  }

  const parts = descriptionParts(story.description, settings);
  if (parts.length >= 2)
    return {
      decomposable: true,
      method: 'description',
      subtasks: parts.map((part, index) =>
        subtask(
          story.id,
          index,
          part,
          index === parts.length - 1 ? [part, ...story.acceptanceCriteria] : [part],
          settings,
        ),
      ),
    };

  return {
    decomposable: false,
    reason: `${story.id} has ${real.length} acceptance ${real.length === 1 ? 'criterion' : 'criteria'} beyond the gates and its description is one piece of work`,
  };
}

function subtask(
  storyId: string,
  index: number,
  text: string,
  criteria: string[],
  options: DecomposeOptions,
): Subtask {
  return {
    id: `${storyId}.${index + 1}`,
    title: truncate(text, options.maxTitleLength),
    acceptanceCriteria: criteria,
    status: 'open',
  };
}

const USER_STORY =
  /^as an? [^,]+,\s*I (?:want|need|would like)(?: to)?\s+(.+?)(?:,?\s+so that\b.*)?$/is;

/** The description's sentences, else its clauses, each with at least `minPartWords` words. */
function descriptionParts(description: string, options: DecomposeOptions): string[] {
  const text = description.trim().replace(/\s+/g, ' ');
  const keep = (parts: string[]) =>
    parts
      .map((part) => part.trim().replace(/[.;,]$/, ''))
      .filter((part) => part.split(' ').filter(Boolean).length >= options.minPartWords)
      .map(capitalise);

  const sentences = keep(text.split(/(?<=[.!?])\s+(?=[A-Z0-9])/));
  if (sentences.length >= 2) return sentences;
  const core = (USER_STORY.exec(text)?.[1] ?? text).replace(/[.!]$/, '');
  return keep(core.split(/\s*;\s*|,?\s+and\s+(?:then\s+)?|,?\s+then\s+/i));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The first subtask not yet complete, with its 1-based position; undefined when the task
 * has no subtasks or all of them are complete.
 *
 * @example
 * nextOpenSubtask(task)?.subtask.id // 'US-002.2'
 */
export function nextOpenSubtask(task: {
  subtasks?: readonly Subtask[] | undefined;
}): { subtask: Subtask; position: number } | undefined {
  const index = (task.subtasks ?? []).findIndex((subtask) => subtask.status !== 'complete');
  const subtask = task.subtasks?.[index];
  return subtask && { subtask, position: index + 1 };
}
