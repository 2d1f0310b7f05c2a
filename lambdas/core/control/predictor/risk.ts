/**
 * Predictive stagnation (the design's section 3.6): a risk score from the signals that
 * tend to come before stagnation (`signals.ts`), and the preventive action it calls for:
 * above `narrowFocusAbove` narrow the agent to one actionable item, above `unstickAbove`
 * inject guidance naming what repeats.
 */
import { z } from 'zod';
import { exceeds } from '../../shared/compare.js';
import { roundTo } from '../../shared/stats.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { StagnationRisk } from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import { everyRuling, firstRuling } from '../rules.js';
import { SIGNAL_RULES, type RiskConfig } from './signals.js';

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

export type PreventionConfig = Pick<LoopControlConfig, 'loop' | 'predictor'>;

/**
 * How likely the loop is to stagnate soon, and which signals say so.
 *
 * @example
 * stagnationRisk(runTrends(history, config), config);
 * // { score: 0.7, contributions: [{ signal: 'repeated_file_touches', weight: 0.3, detail: '...' }, ...] }
 */
export function stagnationRisk(trends: RunTrends, config: RiskConfig): StagnationRisk {
  const contributions = everyRuling(SIGNAL_RULES, trends, config);
  const sum = contributions.reduce((total, { weight }) => total + weight, 0);
  // Rounded so that 0.4 + 0.3 + 0.2 reads 0.9, not 0.9000000000000001.
  return { score: Math.min(1, roundTo(sum, 6)), contributions };
}

/** The latest error in the predictor's window: fix only that. */
const fixTheLatestError = ({ recentErrors }: RunTrends): ActionableItem | undefined =>
  recentErrors.latest === undefined
    ? undefined
    : {
        source: 'error',
        subject: recentErrors.latest,
        instruction: `Fix only this error, and change nothing unrelated to it: ${recentErrors.latest}`,
      };

/** The file most often left uncommitted since the last commit: finish it. */
const finishTheFile = ({ uncommittedFiles }: RunTrends): ActionableItem | undefined => {
  const file = uncommittedFiles[0];
  return file
    ? {
        source: 'file',
        subject: file.file,
        instruction: `Finish the change to ${file.file} (left uncommitted by ${file.touches} iterations) and get it committed before touching any other file.`,
      }
    : undefined;
};

/** The current task: the smallest change that passes. */
const stayOnTheTask = ({ currentTaskId: task }: RunTrends): ActionableItem | undefined =>
  task === undefined
    ? undefined
    : {
        source: 'task',
        subject: task,
        instruction: `Work only on task ${task}: make the smallest change that passes its gates and commit it.`,
      };

const ITEM_RULES = [fixTheLatestError, finishTheFile, stayOnTheTask] as const;

/**
 * The single thing to do next: the latest error in the predictor's window, else the file
 * most often left uncommitted since the last commit, else the current task.
 *
 * @example
 * actionableItem(runTrends(history, config));
 * // { source: 'error', subject: 'error TS2345: ...', instruction: 'Fix only this error ...' }
 */
export function actionableItem(trends: RunTrends): ActionableItem | undefined {
  return firstRuling(ITEM_RULES, trends, undefined);
}

/**
 * What to do about the risk before stagnation sets in. `none` while predictive stagnation
 * is disabled (`loop.enablePredictiveStagnation`) or there is no history.
 *
 * @example
 * preventiveAction({ score: 0.6, contributions }, trends, config);
 * // { type: 'narrow_focus', item: { source: 'error', subject: '...', instruction: '...' } }
 */
export function preventiveAction(
  risk: StagnationRisk,
  trends: RunTrends,
  config: PreventionConfig,
): PreventiveAction {
  const { narrowFocusAbove, unstickAbove } = config.predictor;
  const item = actionableItem(trends);
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
