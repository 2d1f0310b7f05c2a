/**
 * What authenticates each webhook sender: Sentry signs its deliveries with the integration's
 * client secret; New Relic signs nothing, so its workflow's webhook carries a token, either
 * as `Authorization: Bearer <token>` or in a header the workflow is configured to send.
 */
import { z } from 'zod';

/** An HTTP header name (RFC 9110 token characters). */
const HeaderNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'an HTTP header name: letters, digits and - only');

export const NewRelicCredentialSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('bearer'), token: z.string().min(1) }),
  z.strictObject({ kind: z.literal('header'), header: HeaderNameSchema, value: z.string().min(1) }),
]);
export type NewRelicCredential = z.infer<typeof NewRelicCredentialSchema>;

/** The secrets of every source; a source left out is not accepted. */
export const HookSecretsSchema = z.strictObject({
  sentry: z.strictObject({ clientSecret: z.string().min(1) }).optional(),
  newrelic: NewRelicCredentialSchema.optional(),
});
export type HookSecretValues = z.infer<typeof HookSecretsSchema>;
