/**
 * Which specialist the next iteration's agent plays (design section 3.8 `decide_agent`).
 * One agent per iteration, so a role is a stance in the prompt, not a separate process.
 * The first rule that holds wins:
 *
 * 1. complete → reviewer (a last look; the loop normally does not pick complete tasks)
 * 2. the latest failure is `too_complex` and so were at least `architectAfterTooComplex`
 *    of the task's failures → architect
 * 3. the latest failure is a failing test or a compiler error → debugger
 * 4. in review: the story's real criteria ask for tests and the tests are not passing yet →
 *    tester; else → reviewer
 * 5. blocked (being retried) → planner: the previous plan did not work
 * 6. not started → planner when the story has more than `plannerAboveCriteria` criteria
 *    beyond the gates' boilerplate, else implementer
 * 7. in progress → implementer
 */
import { z } from 'zod';
import { AGENT_MODES } from '../../schemas/control-history.js';
import type { PromptTemplates } from '../../prompts/templates.js';
import type { UserStory } from '../../schemas/prd.js';
import type { FailureKind } from '../retry/classify-failure.js';
import { realCriteria, type DecomposeOptionsInput } from '../retry/decompose.js';
import type { TaskStatus } from '../../schemas/task.js';
import { firstRuling, type Rule } from '../rules.js';

/** The design's agents (§3.8), one list with the history's modes. */
export const ROLES = AGENT_MODES;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const SelectRoleOptionsSchema = z.object({
  /** A story with more real criteria than this starts with a plan. */
  plannerAboveCriteria: z.number().int().nonnegative().default(3),
  /** "Too complex twice": this many too_complex failures of one task call the architect. */
  architectAfterTooComplex: z.number().int().positive().default(2),
  /** Criteria that ask for tests. */
  testCriterionPattern: z
    .string()
    .default('\\b(tests?|specs?|test cases?|coverage|unit-tested|tested)\\b'),
});
export type SelectRoleOptions = z.infer<typeof SelectRoleOptionsSchema>;
export type SelectRoleOptionsInput = z.input<typeof SelectRoleOptionsSchema> & {
  decompose?: DecomposeOptionsInput;
};

/** What of a task's state the role depends on: its status, and the two facts the rules read. */
export type RoleTaskState =
  | { status: TaskStatus }
  | { status: 'in_review'; testsPassing: boolean }
  | { status: 'blocked'; reason: string };

export interface RoleContext {
  state: RoleTaskState;
  story: Pick<UserStory, 'acceptanceCriteria'>;
  /** The kinds of this task's failures, oldest first (empty when none). */
  failures: readonly FailureKind[];
}

export interface RoleChoice {
  role: Role;
  why: string;
}

/** The settings a role rule reads: this module's, and decomposition's real-criteria filter. */
interface RoleSettings {
  role: SelectRoleOptions;
  decompose: DecomposeOptionsInput | undefined;
}
type RoleRule = Rule<RoleContext, RoleSettings, RoleChoice>;

const tooComplexCount = (failures: readonly FailureKind[]): number =>
  failures.filter((kind) => kind === 'too_complex').length;

const complete: RoleRule = ({ state }) =>
  state.status === 'complete'
    ? { role: 'reviewer', why: 'the task is complete: a last review' }
    : undefined;

const tooComplexTwice: RoleRule = ({ failures }, { role }) => {
  const count = tooComplexCount(failures);
  return failures.at(-1) === 'too_complex' && count >= role.architectAfterTooComplex
    ? {
        role: 'architect',
        why: `too complex ${count} times (architect at ${role.architectAfterTooComplex}): the design needs rethinking`,
      }
    : undefined;
};

const failingTest: RoleRule = ({ failures }) =>
  failures.at(-1) === 'test_failure'
    ? { role: 'debugger', why: 'the last attempt left a failing test' }
    : undefined;

const compileError: RoleRule = ({ failures }) =>
  failures.at(-1) === 'compilation_error'
    ? { role: 'debugger', why: 'the last attempt did not compile' }
    : undefined;

const inReview: RoleRule = ({ state, story }, settings) => {
  if (state.status !== 'in_review') return undefined;
  const testsPassing = 'testsPassing' in state ? state.testsPassing : true;
  if (!testsPassing && mentionsTests(story, settings.role, settings.decompose))
    return {
      role: 'tester',
      why: 'implemented; the story asks for tests and they are not passing yet',
    };
  return {
    role: 'reviewer',
    why: testsPassing
      ? 'tests pass: review before completing'
      : 'gates passed: review before completing',
  };
};

const blocked: RoleRule = ({ state }) =>
  state.status === 'blocked'
    ? {
        role: 'planner',
        why: `retrying a blocked task${'reason' in state ? ` (${state.reason})` : ''}: plan afresh`,
      }
    : undefined;

const notStarted: RoleRule = ({ state, story }, settings) => {
  if (state.status !== 'not_started') return undefined;
  const count = realCriteria(story.acceptanceCriteria, settings.decompose).length;
  const split = count > settings.role.plannerAboveCriteria;
  return {
    role: split ? 'planner' : 'implementer',
    why: `start of task: ${count} criteri${count === 1 ? 'on' : 'a'} (planner above ${settings.role.plannerAboveCriteria})`,
  };
};

/** The design's order (see the top of this file); in progress is what remains. */
const ROLE_RULES: readonly RoleRule[] = [
  complete,
  tooComplexTwice,
  failingTest,
  compileError,
  inReview,
  blocked,
  notStarted,
];

/**
 * The role for the next iteration on a task, and why.
 *
 * @example
 * selectRole({ state: { status: 'not_started' }, story, failures: [] })
 * // { role: 'implementer', why: 'start of task: 2 criteria (planner above 3)' }
 */
export function selectRole(context: RoleContext, options: SelectRoleOptionsInput = {}): RoleChoice {
  const settings = { role: SelectRoleOptionsSchema.parse(options), decompose: options.decompose };
  return (
    firstRuling(ROLE_RULES, context, settings) ?? {
      role: 'implementer',
      why: 'implementation in progress',
    }
  );
}

/** A real criterion asks for tests ("Tests pass" is the gate's business, not a request). */
function mentionsTests(
  story: Pick<UserStory, 'acceptanceCriteria'>,
  options: SelectRoleOptions,
  decompose: DecomposeOptionsInput | undefined,
): boolean {
  const pattern = new RegExp(options.testCriterionPattern, 'i');
  return realCriteria(story.acceptanceCriteria, decompose).some((criterion) =>
    pattern.test(criterion),
  );
}

/**
 * The role's instruction paragraph for the prompt: `prompts/templates/role-<role>.md`.
 *
 * @example
 * roleInstructions('debugger', templates) // 'You are the DEBUGGER for this iteration. ...'
 */
export function roleInstructions(role: Role, templates: PromptTemplates): string {
  return templates.render(`role-${role}`, {});
}
