/**
 * A run config's `pricing`: models' prices that replace the built-in table's (a newer list
 * price, a negotiated rate), with the day they hold from, which receipts then name.
 */
import { z } from 'zod';

const PerMTok = z.number().nonnegative();

export const ModelPriceSchema = z.strictObject({
  /** USD per million input tokens. */
  inputPerMTok: PerMTok,
  /** USD per million output tokens. */
  outputPerMTok: PerMTok,
});

export const PricingConfigSchema = z.strictObject({
  /** The day these prices were checked (YYYY-MM-DD): receipts show it instead of the table's. */
  asOf: z.iso.date(),
  /** Model id (as the API names it, e.g. `claude-sonnet-4-6`) → its price. */
  models: z
    .record(z.string().min(1), ModelPriceSchema)
    .refine((models) => Object.keys(models).length > 0, { message: 'name at least one model' }),
});
export type PricingConfig = z.infer<typeof PricingConfigSchema>;
