/**
 * What extraction hands to merging: a registry pattern without what the registry keeps
 * (scope, version, use counts, trend, timestamps), and the finished run it is read from.
 */
import { z } from 'zod';
import { IterationRecordSchema } from '../../schemas/iteration.js';
import { RegistryPatternSchema } from '../../schemas/learning.js';
import { TASK_STATUSES } from '../../schemas/task.js';

/** A pattern as one run taught it: `sources` holds that run alone. */
export const PatternCandidateSchema = RegistryPatternSchema.omit({
  scope: true,
  version: true,
  uses: true,
  successes: true,
  successRate: true,
  trend: true,
  createdAt: true,
  lastUsedAt: true,
  updatedAt: true,
});
export type PatternCandidate = z.infer<typeof PatternCandidateSchema>;

/** What a run's tasks and recorded iterations say, read once the run has ended. */
export const RunHistorySchema = z.object({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  endedAt: z.iso.datetime({ offset: true }),
  tasks: z.array(
    z.object({
      taskId: z.string().min(1),
      story: z.object({ title: z.string(), description: z.string() }),
      status: z.enum(TASK_STATUSES),
    }),
  ),
  /** The recorded iterations, oldest first. */
  iterations: z.array(IterationRecordSchema),
});
export type RunHistory = z.infer<typeof RunHistorySchema>;
export type HistoryTask = RunHistory['tasks'][number];
