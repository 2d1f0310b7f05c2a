/** The judge and the cheap mode compared per QUS criterion (see gap/criteria-agreement.ts). */
import { z } from 'zod';
import { QusCriterionSchema } from '../qus.js';

export const CriterionAgreementSchema = z.object({
  criterion: QusCriterionSchema,
  /** Stories compared: both modes scored them and the judge gave verdicts. */
  stories: z.number().int().nonnegative(),
  judgeDefects: z.number().int().nonnegative(),
  cheapDefects: z.number().int().nonnegative(),
  both: z.number().int().nonnegative(),
  judgeOnly: z.number().int().nonnegative(),
  cheapOnly: z.number().int().nonnegative(),
  neither: z.number().int().nonnegative(),
  /** Cohen's kappa of the two modes' defect verdicts; see `cohenKappa` for `null`. */
  kappa: z.number().nullable(),
});
export type CriterionAgreement = z.infer<typeof CriterionAgreementSchema>;
