import { z } from 'zod';

/** How an iteration ended. Only `passed` makes a commit count and a story pass. */
export const ITERATION_OUTCOMES = [
  'passed',
  'gates_failed',
  'no_changes',
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
  'workspace_missing',
  'workspace_dirty',
  'cancelled',
  'interrupted',
  'runner_error',
] as const;
export const IterationOutcomeSchema = z.enum(ITERATION_OUTCOMES);
export type IterationOutcome = z.infer<typeof IterationOutcomeSchema>;
