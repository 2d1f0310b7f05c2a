/** A project's spend of one UTC day, as stored (what `limits.maxCostUsdPerProjectDay` holds). */
import { z } from 'zod';

export const ProjectSpendSchema = z.object({
  projectId: z.string().min(1),
  day: z.iso.date(),
  /** USD: the receipts' totals of the iterations counted that day. */
  usd: z.number().nonnegative(),
});
export type ProjectSpend = z.infer<typeof ProjectSpendSchema>;

/** One iteration's cost, counted towards its project's spend of a day (UTC, YYYY-MM-DD). */
export interface ProjectSpendEntry {
  projectId: string;
  day: string;
  usd: number;
  /** `<runId>#<iteration>`: kept with the sum, so the same entry again adds nothing. */
  countedAs: string;
}
