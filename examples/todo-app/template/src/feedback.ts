/** One piece of customer feedback, as the support tools export it. */
export interface Feedback {
  readonly id: string;
  readonly channel: string;
  /** ISO date the feedback arrived. */
  readonly received: string;
  readonly customer: { readonly role?: string; readonly plan?: string };
  readonly text: string;
}

/** Checks a parsed JSON value is feedback; `source` names it in the error. */
export function parseFeedback(value: unknown, source: string): Feedback {
  if (typeof value !== 'object' || value === null) throw new Error(`${source}: not an object`);
  const record = value as Record<string, unknown>;
  for (const field of ['id', 'channel', 'received', 'text'] as const)
    if (typeof record[field] !== 'string' || record[field] === '')
      throw new Error(`${source}: "${field}" must be a non-empty string`);
  const customer = record.customer;
  if (typeof customer !== 'object' || customer === null)
    throw new Error(`${source}: "customer" must be an object`);
  return value as Feedback;
}
