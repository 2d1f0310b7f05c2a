import { z } from 'zod';

/** One quality gate's run, as the runner reports it (its own module: evaluation needs it too). */
export const GateResultSchema = z.object({
  name: z.string(),
  blocking: z.boolean(),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().nonnegative(),
  /** The last lines of the gate's output (the full output is in gates.json on S3). */
  outputTail: z.string(),
});
export type GateResult = z.infer<typeof GateResultSchema>;
