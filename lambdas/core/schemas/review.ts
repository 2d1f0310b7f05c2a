/** Quality enforcement's review findings (design §3.9), kept on results and tasks. */
import { z } from 'zod';

export const REVIEW_FINDING_KINDS = [
  'test_failures',
  'missing_tests',
  'security',
  'warnings',
  'advisory_gate',
] as const;
export const ReviewFindingKindSchema = z.enum(REVIEW_FINDING_KINDS);
export type ReviewFindingKind = z.infer<typeof ReviewFindingKindSchema>;

/** Something to look at before the task completes; never a failure by itself. */
export const ReviewFindingSchema = z.object({
  kind: ReviewFindingKindSchema,
  /** The gate whose output it came from (absent for findings about the change itself). */
  gate: z.string().optional(),
  message: z.string().min(1),
});
export type ReviewFinding = z.infer<typeof ReviewFindingSchema>;
