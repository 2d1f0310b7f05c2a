/** How much of a run becomes a pattern (cross-loop-learning.md, "Pattern Extraction"). */
import { z } from 'zod';

export const ExtractOptionsSchema = z.strictObject({
  /** A task failing with one issue key this often is an anti-pattern ("repeated dead ends"). */
  antiPatternFailures: z.number().int().min(2).default(3),
  /** Files a body names before "(+N more)". */
  maxFiles: z.number().int().nonnegative().default(3),
  /** A body's length: the prompt shows it beside up to `topK` others. */
  maxBodyChars: z.number().int().min(40).default(600),
  /** A title's length: one line. */
  maxTitleChars: z.number().int().min(20).default(160),
});
export type ExtractOptions = z.infer<typeof ExtractOptionsSchema>;
export type ExtractOptionsInput = z.input<typeof ExtractOptionsSchema>;
