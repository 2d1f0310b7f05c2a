/**
 * Predictive stagnation (the design's section 3.6): a risk score from four signals that
 * tend to come before stagnation, and the preventive action it calls for: above
 * `narrowFocusAbove` narrow the agent to one actionable item, above `unstickAbove` inject
 * guidance naming what repeats. The signals, each adding its configured weight:
 *
 * - repeated file touches: since the last commit, some file was left uncommitted by more
 *   than `repeatedFileTouches` iterations;
 * - stagnant test count: none of the latest `stagnantTestIterations` iterations reported
 *   more tests than the latest count reported before them (unknown before them: no signal);
 * - error repetition: the share of the latest `windowIterations` iterations whose error
 *   already occurred earlier in that window is above `errorRepetitionRate`;
 * - recent mode switch: the mode changed between two consecutive iterations of one task
 *   among the latest `recentModeSwitchIterations`.
 */
import { z } from 'zod';
import { exceeds } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import { errorTallies, recent, trailingCount, type History } from '../history.js';
import type { RiskSignal, StagnationRisk } from '../../schemas/control-decisions.js';

type Contribution = StagnationRisk['contributions'][number];

/** The one thing the agent should do next, and where it came from. */
export const ActionableItemSchema = z.object({
  source: z.enum(['error', 'file', 'task']),
  /** The error signature, file path or task id. */
  subject: z.string(),
  instruction: z.string(),
});
export type ActionableItem = z.infer<typeof ActionableItemSchema>;

export const PreventiveActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('narrow_focus'), item: ActionableItemSchema }),
  z.object({ type: z.literal('inject_guidance'), guidance: z.string() }),
]);
export type PreventiveAction = z.infer<typeof PreventiveActionSchema>;

export type RiskConfig = Pick<LoopControlConfig, 'predictor'>;
export type PreventionConfig = Pick<LoopControlConfig, 'loop' | 'predictor'>;

interface FileTouches {
  file: string;
  touches: number;
  lastIteration: number;
}

/** Files left uncommitted since the last commit, most touched first (ties: most recent). */
function uncommittedTouches(history: History): FileTouches[] {
  const sinceCommit = recent(
    history,
    trailingCount(history, (entry) => !entry.committed),
  );
  const touches = new Map<string, FileTouches>();
  for (const entry of sinceCommit)
    for (const file of new Set(entry.filesTouchedUncommitted))
      touches.set(file, {
        file,
        touches: (touches.get(file)?.touches ?? 0) + 1,
        lastIteration: entry.iteration,
      });
  return [...touches.values()].sort(
    (a, b) => b.touches - a.touches || b.lastIteration - a.lastIteration,
  );
}

function repeatedFileTouches(history: History, limit: number): string | undefined {
  const top = uncommittedTouches(history)[0];
  return top && top.touches > limit
    ? `${top.file} was changed in ${top.touches} iterations without a commit`
    : undefined;
}

function stagnantTestCount(history: History, iterations: number): string | undefined {
  const before = history.slice(0, Math.max(0, history.length - iterations));
  if (history.length - before.length < iterations) return undefined;
  const baseline = before.findLast((entry) => entry.testsTotal !== undefined)?.testsTotal;
  if (baseline === undefined) return undefined;
  const grew = recent(history, iterations).some(
    (entry) => entry.testsTotal !== undefined && entry.testsTotal > baseline,
  );
  return grew
    ? undefined
    : `the test count has not risen above ${baseline} for ${iterations} iterations`;
}

function errorRepetition(history: History, window: number, rate: number): string | undefined {
  const latest = recent(history, window);
  const seen = new Set<string>();
  let repeated = 0;
  for (const { errorSignature } of latest) {
    if (errorSignature === undefined) continue;
    if (seen.has(errorSignature)) repeated += 1;
    seen.add(errorSignature);
  }
  const top = errorTallies(latest)[0];
  if (latest.length === 0 || top === undefined || !exceeds(repeated / latest.length, rate))
    return undefined;
  return `${repeated} of the last ${latest.length} iterations repeated an earlier error, most often "${top.signature}" (${top.occurrences} times)`;
}

function recentModeSwitch(history: History, iterations: number): string | undefined {
  const latest = recent(history, iterations);
  for (let index = latest.length - 1; index > 0; index -= 1) {
    const [previous, current] = [latest[index - 1], latest[index]];
    if (previous && current && previous.taskId === current.taskId && previous.mode !== current.mode)
      return `the mode switched from ${previous.mode} to ${current.mode} in iteration ${current.iteration}`;
  }
  return undefined;
}

/**
 * How likely the loop is to stagnate soon, and which signals say so.
 *
 * @example
 * stagnationRisk(history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { score: 0.7, contributions: [{ signal: 'repeated_file_touches', weight: 0.3, detail: '...' }, ...] }
 */
export function stagnationRisk(history: History, config: RiskConfig): StagnationRisk {
  const settings = config.predictor;
  const { weights } = settings;
  const signals: [RiskSignal, number, string | undefined][] = [
    [
      'repeated_file_touches',
      weights.repeatedFileTouches,
      repeatedFileTouches(history, settings.repeatedFileTouches),
    ],
    [
      'stagnant_test_count',
      weights.stagnantTestCount,
      stagnantTestCount(history, settings.stagnantTestIterations),
    ],
    [
      'error_repetition',
      weights.errorRepetition,
      errorRepetition(history, settings.windowIterations, settings.errorRepetitionRate),
    ],
    [
      'recent_mode_switch',
      weights.recentModeSwitch,
      recentModeSwitch(history, settings.recentModeSwitchIterations),
    ],
  ];
  const contributions: Contribution[] = signals.flatMap(([signal, weight, detail]) =>
    detail === undefined ? [] : [{ signal, weight, detail }],
  );
  const sum = contributions.reduce((total, { weight }) => total + weight, 0);
  // Rounded so that 0.4 + 0.3 + 0.2 reads 0.9, not 0.9000000000000001.
  return { score: Math.min(1, Math.round(sum * 1e6) / 1e6), contributions };
}

/**
 * The single thing to do next: the latest error in the predictor's window, else the file
 * most often left uncommitted since the last commit, else the current task.
 *
 * @example
 * actionableItem(history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { source: 'error', subject: 'error TS2345: ...', instruction: 'Fix only this error ...' }
 */
export function actionableItem(history: History, config: RiskConfig): ActionableItem | undefined {
  const error = recent(history, config.predictor.windowIterations).findLast(
    (entry) => entry.errorSignature !== undefined,
  )?.errorSignature;
  if (error !== undefined)
    return {
      source: 'error',
      subject: error,
      instruction: `Fix only this error, and change nothing unrelated to it: ${error}`,
    };
  const file = uncommittedTouches(history)[0];
  if (file)
    return {
      source: 'file',
      subject: file.file,
      instruction: `Finish the change to ${file.file} (left uncommitted by ${file.touches} iterations) and get it committed before touching any other file.`,
    };
  const task = history.at(-1)?.taskId;
  if (task === undefined) return undefined;
  return {
    source: 'task',
    subject: task,
    instruction: `Work only on task ${task}: make the smallest change that passes its gates and commit it.`,
  };
}

/**
 * What to do about the risk before stagnation sets in. `none` while predictive stagnation
 * is disabled (`loop.enablePredictiveStagnation`) or there is no history.
 *
 * @example
 * preventiveAction({ score: 0.6, contributions }, history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { type: 'narrow_focus', item: { source: 'error', subject: '...', instruction: '...' } }
 */
export function preventiveAction(
  risk: StagnationRisk,
  history: History,
  config: PreventionConfig,
): PreventiveAction {
  const { narrowFocusAbove, unstickAbove } = config.predictor;
  const item = actionableItem(history, config);
  if (!config.loop.enablePredictiveStagnation || item === undefined) return { type: 'none' };
  if (exceeds(risk.score, unstickAbove)) {
    const repeats = risk.contributions.map(({ detail }) => `- ${detail}`);
    const guidance = [
      `Stagnation risk ${risk.score}: the last iterations are going round in circles.`,
      ...(repeats.length > 0 ? ['What repeats:', ...repeats] : []),
      'Do not try the approach of the last iterations again: step back, read the failing output in full, and choose a different approach.',
      item.instruction,
      'If it cannot be done, write down what blocks it in the learnings of your final message and stop.',
    ].join('\n');
    return { type: 'inject_guidance', guidance };
  }
  if (exceeds(risk.score, narrowFocusAbove)) return { type: 'narrow_focus', item };
  return { type: 'none' };
}
