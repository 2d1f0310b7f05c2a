/** What the loop does next: the choices the state machine branches on. */
import { z } from 'zod';

export const LOOP_ACTIONS = [
  'continue',
  'new_segment',
  'complete',
  'pause',
  'abort',
  'max_iterations',
  'cancel',
] as const;
export const LoopActionSchema = z.enum(LOOP_ACTIONS);
export type LoopAction = z.infer<typeof LoopActionSchema>;
