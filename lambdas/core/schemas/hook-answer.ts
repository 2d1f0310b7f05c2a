/** What a hook answers a sender (and `ralph hooks send` prints): per event, what became of its group. */
import { z } from 'zod';
import { ErrorGroupStatusSchema } from './error-group.js';
import { ErrorSourceSchema } from './error-event.js';

export const HOOK_EVENT_OUTCOMES = ['queued', 'held', 'repeat', 'updated', 'unrouted'] as const;

export const HookEventAnswerSchema = z.strictObject({
  source: ErrorSourceSchema,
  fingerprint: z.string(),
  /**
   * - `queued`: in the project's batch, its run starts when the batch closes;
   * - `held`: routed but not run (the hourly limit, a full batch), `reason` says which;
   * - `repeat`: its investigation is open, or it was fixed or given up: counted only;
   * - `updated`: its state changed (resolved, ignored, assigned), nothing to run;
   * - `unrouted`: no project route names it: recorded, not run.
   */
  outcome: z.enum(HOOK_EVENT_OUTCOMES),
  status: ErrorGroupStatusSchema,
  reason: z.string().optional(),
  batchId: z.string().optional(),
  runId: z.string().optional(),
});
export type HookEventAnswer = z.infer<typeof HookEventAnswerSchema>;

export const HookAnswerSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('recorded'), events: z.array(HookEventAnswerSchema) }),
  z.strictObject({ outcome: z.literal('ignored'), reason: z.string() }),
  z.strictObject({ outcome: z.literal('duplicate'), reason: z.string() }),
]);
export type HookAnswer = z.infer<typeof HookAnswerSchema>;
