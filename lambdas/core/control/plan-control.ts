/**
 * What loop control adds to the next iteration's plan: the mode (role) the agent works
 * in, and the prompt sections that steer it, each present exactly when its condition
 * holds (design §3.3, §3.5, §3.6, §3.8, §3.9):
 * - role: always (unless `loop.enableDynamicPrompts` is off: then only subtask and review,
 *   which say what the work is);
 * - subtask: the story was decomposed (which subtask, and its criteria);
 * - review: the task is in review (its story passed with findings);
 * - recovery: the last iteration failed on this task (its classified cause and strategy);
 * - remediation: it failed gates (one paragraph per failed gate);
 * - anti-pattern: the stagnation level is warning or above (what repeats);
 * - prevention: the stagnation risk is above `narrowFocusAbove` (focus, or unstick guidance);
 * - time budget: the task has run over `taskTimeoutMinutes` or `maxTaskIterations`.
 *
 * The mode is the role for the task's state (roles/select-role.ts: planner, implementer,
 * tester, reviewer, debugger, architect), unless stagnation or the supervisor's
 * SWITCH_MODE overrides it.
 *
 * The sections' words are templates (`prompts/templates/section-<kind>.md`, `role-<role>.md`,
 * `recovery-<strategy>.md`, docs/prompts.md); this module decides which appear, and with what.
 */
import type { PromptTemplateName, PromptValues } from '../prompts/catalogue.js';
import { PromptTemplateError } from '../prompts/errors.js';
import type { PromptTemplates } from '../prompts/templates.js';
import type { GateResult } from '../schemas/gate-result.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { UserStory } from '../schemas/prd.js';
import type { LoopControlConfig } from '../schemas/control-config.js';
import { type AgentMode } from '../schemas/control-history.js';
import { preventiveAction, stagnationRisk } from './predictor/risk.js';
import { remediationPrompt } from './quality/remediation.js';
import type { ReviewWork } from './quality/review-section.js';
import { classifyFailure, type FailureClassification } from './retry/classify-failure.js';
import { runTrends } from './facts/run-trends.js';
import { recoveryStrategy, renderRecoverySection } from './retry/recovery-strategy.js';
import { roleInstructions, selectRole, type RoleTaskState } from './roles/select-role.js';
import type { RunControlState } from '../schemas/control.js';
import type { PlanControl } from '../schemas/plan.js';

export interface PlanControlInput {
  state: RunControlState | undefined;
  story: Pick<UserStory, 'id' | 'title' | 'description' | 'acceptanceCriteria'>;
  /** The decomposed story's subtasks, when it was decomposed (design §3.5). */
  subtasks?: readonly {
    id: string;
    title: string;
    acceptanceCriteria: string[];
    status: 'open' | 'complete';
  }[];
  /** The previous iteration, when it worked on this task and did not pass. */
  lastFailure?: { outcome: IterationOutcome; gates: GateResult[]; detail: string };
  /** The task is in review: its findings, one line each, and whether this review is its last. */
  review?: ReviewWork;
  /** The task's state as the role depends on it (roles/select-role.ts); in progress when absent. */
  task?: RoleTaskState;
  /** The iteration being planned, and now (ISO). */
  iteration: number;
  now: string;
  /** The words of the sections. */
  templates: PromptTemplates;
}

/**
 * @example
 * planControl({ state: run.control, story, lastFailure, iteration: 4, now, templates }, run.config.control);
 * // { mode: 'debugger', why: 'the last attempt failed its tests', sections: [...] }
 */
export function planControl(input: PlanControlInput, config: LoopControlConfig): PlanControl {
  const { state, templates } = input;
  const sections: PlanSection[] = [];
  const subtasks = subtaskSection(input);
  if (subtasks) sections.push(subtasks);
  // In review (design §3.4): the story passed its gates; the section lists what the
  // quality check found.
  if (input.review)
    sections.push(
      section(templates, 'review', {
        last: input.review.last,
        findings: input.review.lines.map((line) => `- ${line}`).join('\n'),
      }),
    );

  const classification = input.lastFailure
    ? classifyFailure({
        outcome: input.lastFailure.outcome,
        gates: input.lastFailure.gates,
        transcriptErrors: input.lastFailure.detail === '' ? [] : [input.lastFailure.detail],
      })
    : undefined;
  if (input.lastFailure && classification)
    sections.push(...failureSections(input, input.lastFailure.gates, classification));

  const { mode, why, stagnation } = modeFor(input, classification);
  if (stagnation) sections.push(stagnation);
  if (state && config.loop.enablePredictiveStagnation && state.history.length > 0) {
    const prevention = preventionSection(state, config, templates);
    if (prevention) sections.push(prevention);
  }
  const budget = timeBudgetSection(input, config);
  if (budget) sections.push(budget);

  // Dynamic prompts off: the mode is still chosen, and the prompt stays Ralph's static one
  // but for what the work itself is (which subtask, which review findings): without those
  // a decomposed story or a review iteration would have nothing to work on.
  if (!config.loop.enableDynamicPrompts)
    return { mode, why, sections: sections.filter((planned) => WORK_SECTIONS.has(planned.kind)) };
  return {
    mode,
    why,
    sections: [
      section(templates, 'role', { role: mode, instructions: roleInstructions(mode, templates) }),
      ...sections,
    ],
  };
}

/** Which subtask of a decomposed story, with its criteria; undefined when none is open. */
function subtaskSection(input: PlanControlInput): PlanSection | undefined {
  const open = (input.subtasks ?? []).findIndex((subtask) => subtask.status === 'open');
  if (!input.subtasks || open < 0) return undefined;
  return section(input.templates, 'subtask', {
    position: open + 1,
    count: input.subtasks.length,
    subtasks: input.subtasks
      .map(
        (subtask, index) =>
          `${index + 1}. ${subtask.id}: ${subtask.title}${subtask.status === 'complete' ? ' (done)' : index === open ? ' ← this one' : ''}${
            index === open
              ? `\n${subtask.acceptanceCriteria.map((criterion) => `   - ${criterion}`).join('\n')}`
              : ''
          }`,
      )
      .join('\n'),
  });
}

/** After a failure on this task: the recovery strategy for its cause, and the failed gates. */
function failureSections(
  input: PlanControlInput,
  gates: GateResult[],
  classification: FailureClassification,
): PlanSection[] {
  const sections: PlanSection[] = [];
  const strategy = recoveryStrategy(classification, { story: input.story }, input.templates);
  // A decomposed story has its subtask section: no second, independent split.
  if (strategy && !(input.subtasks && strategy.kind === 'decompose'))
    sections.push(
      headed(
        'recovery',
        renderRecoverySection(strategy, input.templates),
        `recovery-${strategy.kind}`,
      ),
    );
  const remediation = remediationPrompt(gates, input.templates);
  if (remediation !== '') sections.push(headed('remediation', remediation, 'section-remediation'));
  return sections;
}

/**
 * The role from the task's state and its failures (design §3.8), overridden by stagnation
 * (with its anti-pattern section) and then by the supervisor's SWITCH_MODE. A decomposed
 * story was too complex once already.
 */
function modeFor(
  input: PlanControlInput,
  classification: FailureClassification | undefined,
): { mode: AgentMode; why: string; stagnation?: PlanSection } {
  const role = selectRole({
    state: input.task ?? { status: input.review ? 'in_review' : 'in_progress' },
    story: input.story,
    failures: [
      ...(input.subtasks ? (['too_complex'] as const) : []),
      ...(classification ? [classification.kind] : []),
    ],
  });
  let chosen: { mode: AgentMode; why: string; stagnation?: PlanSection } = {
    mode: role.role,
    why: role.why,
  };
  const stagnation = input.state?.stagnation;
  if (stagnation && stagnation.level !== 'none')
    // The levels build on each other: from the warning on, the agent debugs.
    chosen = {
      mode: stagnation.switchTo ?? 'debugger',
      why: `stagnation ${stagnation.level}: ${stagnation.count} iterations without progress`,
      stagnation: section(input.templates, 'anti_pattern', {
        level: stagnation.level,
        summary: stagnation.diagnostics.summary,
      }),
    };
  const verdict = input.state?.verdict;
  if (verdict?.verdict === 'SWITCH_MODE' && verdict.switchTo)
    chosen = { ...chosen, mode: verdict.switchTo, why: `supervisor: ${verdict.reason}` };
  return chosen;
}

/** Before stagnation sets in (design §3.6): focus on one item, or guidance to get unstuck. */
function preventionSection(
  state: RunControlState,
  config: LoopControlConfig,
  templates: PromptTemplates,
): PlanSection | undefined {
  const trends = runTrends(state.history, config);
  const action = preventiveAction(stagnationRisk(trends, config), trends, config);
  if (action.type === 'narrow_focus')
    return section(templates, 'prevention', {
      instruction: action.item.instruction,
      source: action.item.source,
      subject: action.item.subject,
      guidance: undefined,
    });
  if (action.type === 'inject_guidance')
    return section(templates, 'prevention', {
      instruction: undefined,
      source: undefined,
      subject: undefined,
      guidance: action.guidance,
    });
  return undefined;
}

/** The task has run over `taskTimeoutMinutes` or `maxTaskIterations`. */
function timeBudgetSection(
  input: PlanControlInput,
  config: LoopControlConfig,
): PlanSection | undefined {
  const task = input.state?.currentTask;
  if (!task || task.taskId !== input.story.id) return undefined;
  const minutes = (Date.parse(input.now) - Date.parse(task.startedAt)) / 60_000;
  const iterations = input.iteration - task.startedIteration;
  const over =
    minutes > config.loop.taskTimeoutMinutes || iterations >= config.loop.maxTaskIterations;
  if (!over) return undefined;
  return section(input.templates, 'time_budget', { minutes: Math.round(minutes), iterations });
}

type PlanSection = PlanControl['sections'][number];

/** Sections that say what the work is, not how to go about it: kept without dynamic prompts. */
const WORK_SECTIONS: ReadonlySet<PlanSection['kind']> = new Set(['subtask', 'review']);

/**
 * The kinds rendered from `prompts/templates/section-<kind>.md` by `section` below. Recovery
 * and remediation render their own templates, being used on their own too.
 */
type TemplatedKind = Extract<PlanSection['kind'], SectionTemplateKind>;
type SectionTemplateKind<Name = PromptTemplateName> = Name extends `section-${infer Kind}`
  ? Kind
  : never;

/** A section from its template: the template's `## heading` is the title. */
function section<Kind extends TemplatedKind>(
  templates: PromptTemplates,
  kind: Kind,
  values: PromptValues<`section-${Kind}`>,
): PlanSection {
  const template = `section-${kind}` as const;
  return headed(kind, templates.render(template, values), template);
}

/** A rendered section's own `## heading` as the title, the rest as the body. */
function headed(kind: PlanSection['kind'], markdown: string, template: string): PlanSection {
  const match = /^## ([^\n]*)\n+/.exec(markdown);
  if (!match)
    throw new PromptTemplateError(template, 'a plan section must begin with its "## title" line');
  return { kind, title: match[1] ?? '', body: markdown.slice(match[0].length).trimEnd() };
}
