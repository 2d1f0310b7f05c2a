/**
 * A New Relic workflow webhook body from its default payload template (Alerts → Workflows →
 * Webhook → Payload): `id` is `{{ json issueId }}`, the times are epoch milliseconds, the
 * `accumulations.*` fields are arrays. A template someone edited may name the id `issueId`
 * and add fields; both are taken. `isCorrelated` arrives as a boolean or as the string
 * `"false"`/`"true"`, depending on how the template renders it.
 */
import { z } from 'zod';

const names = z.array(z.string()).nullish();

export const NEW_RELIC_STATES = ['CREATED', 'ACTIVATED', 'ACKNOWLEDGED', 'CLOSED'] as const;
export const NEW_RELIC_PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;

export const NewRelicWorkflowPayloadSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    issueId: z.string().min(1).optional(),
    issueUrl: z.string().nullish(),
    title: z.string().min(1),
    priority: z.enum(NEW_RELIC_PRIORITIES),
    impactedEntities: names,
    totalIncidents: z.number().int().nonnegative().nullish(),
    state: z.enum(NEW_RELIC_STATES),
    trigger: z.string().nullish(),
    isCorrelated: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')])
      .nullish(),
    createdAt: z.number().nullish(),
    updatedAt: z.number().nullish(),
    sources: names,
    /** The route key: a project route names one of these policies. */
    alertPolicyNames: z.array(z.string().min(1)).min(1),
    alertConditionNames: names,
    workflowName: z.string().nullish(),
  })
  .refine((payload) => payload.id ?? payload.issueId, {
    message: 'missing: the issue id (the default template sends it as "id": {{ json issueId }})',
    path: ['id'],
  });
export type NewRelicWorkflowPayload = z.infer<typeof NewRelicWorkflowPayloadSchema>;
