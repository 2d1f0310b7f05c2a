/**
 * What loop control remembers of each iteration (the run's control history, stored on the
 * run record) and the roles an iteration runs in.
 */
import { z } from 'zod';
import { IterationOutcomeSchema } from './outcome.js';

const tally = () => z.number().int().nonnegative().optional();

/** The agent roles of the design's section 3.8; an iteration runs in one of them. */
export const AGENT_MODES = [
  'planner',
  'implementer',
  'tester',
  'reviewer',
  'debugger',
  'architect',
] as const;
export const AgentModeSchema = z.enum(AGENT_MODES);
export type AgentMode = z.infer<typeof AgentModeSchema>;

export const IterationSummarySchema = z
  .object({
    iteration: z.number().int().positive(),
    taskId: z.string().min(1),
    mode: AgentModeSchema,
    outcome: IterationOutcomeSchema,
    /** The change counted: its gates passed and it was committed. */
    committed: z.boolean(),
    /** Progress short of a commit (the progress signals' judgement). */
    meaningfulChange: z.boolean(),
    /** {@link errorSignature} of the gate output or agent error, when there was one. */
    errorSignature: z.string().min(1).optional(),
    testsPassed: tally(),
    testsFailed: tally(),
    testsTotal: tally(),
    warnings: tally(),
    /** Files the iteration changed that were not committed. */
    filesTouchedUncommitted: z.array(z.string().min(1)).default([]),
    endedAt: z.iso.datetime({ offset: true }),
  })
  .superRefine((entry, ctx) => {
    const { testsPassed = 0, testsFailed = 0, testsTotal } = entry;
    if (testsTotal !== undefined && testsPassed + testsFailed > testsTotal)
      ctx.addIssue({
        code: 'custom',
        path: ['testsTotal'],
        message: 'testsPassed + testsFailed exceeds testsTotal',
      });
  });
export type IterationSummary = z.infer<typeof IterationSummarySchema>;

export type IterationSummaryInput = z.input<typeof IterationSummarySchema>;
