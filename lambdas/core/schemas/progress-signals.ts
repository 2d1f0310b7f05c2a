/**
 * The progress signals of one iteration (design §3.1) as stored: on the iteration record,
 * and the baselines the run carries to the next iteration.
 */
import { z } from 'zod';
import { GateOutputCountsSchema } from './gate-counts.js';

const Count = z.number().int().nonnegative();

/** Gate name → counts read from its output. */
export const GateCountsByNameSchema = z.record(z.string(), GateOutputCountsSchema);
export type GateCountsByName = z.infer<typeof GateCountsByNameSchema>;

/** File → iterations that changed it since the last counted commit. */
export const UncommittedEditsSchema = z.record(z.string(), z.number().int().positive());
export type UncommittedEdits = z.infer<typeof UncommittedEditsSchema>;

export const ProgressSignalsSchema = z.object({
  iteration: z.number().int().positive(),
  taskId: z.string(),
  // Git level
  commitsAdded: Count,
  /** Added + removed lines; undefined when the numstat was not given. */
  linesChanged: Count.optional(),
  // File level
  sourceFilesModified: Count,
  testFilesModified: Count,
  docFilesModified: Count,
  configFilesModified: Count,
  // Quality level: summed over gates whose counts are known now and in the baseline.
  /** Growth of the total test count; 0 when it shrank; undefined when unknown. */
  testsAdded: Count.optional(),
  /** Passing tests now minus in the baseline: negative is a regression. */
  testsPassingDelta: z.number().int().optional(),
  warningsDelta: z.number().int().optional(),
  errorsDelta: z.number().int().optional(),
  // Task level
  /** The iteration passed, which is what makes a story pass. */
  taskCompleted: z.boolean(),
  /** Iterations on the current task, this one included. */
  currentTaskIterations: z.number().int().positive(),
  currentTaskMs: z.number().nonnegative(),
  taskSwitched: z.boolean(),
  taskSwitchCount: Count,
  // Behaviour
  uniqueFilesTouched: Count,
  /** Files changed now that have gone `repeatedEditThreshold` iterations without a commit. */
  repeatedEditFiles: z.array(z.string()),
  /** (distinct areas − 1) ÷ (files − 1): 0 focused in one area, 1 every file elsewhere. */
  explorationBreadth: z.number().min(0).max(1),
  meaningfulChange: z.boolean(),
  // For the caller to keep
  gateCounts: GateCountsByNameSchema,
  nextBaselineGateCounts: GateCountsByNameSchema,
  nextUncommittedEdits: UncommittedEditsSchema,
});
export type ProgressSignals = z.infer<typeof ProgressSignalsSchema>;
