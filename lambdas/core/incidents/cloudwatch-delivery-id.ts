/**
 * The id AWS gives a CloudWatch alarm delivery and keeps on its retries, which keys its
 * replay protection: the EventBridge event's `id`, an SNS HTTP notification's `MessageId`,
 * or the `MessageId`s of an SNS Lambda event's records. Undefined when the body has none.
 */
export function cloudWatchDeliveryId(body: unknown): string | undefined {
  const value = body as {
    id?: unknown;
    MessageId?: unknown;
    Records?: { Sns?: { MessageId?: unknown } }[];
  } | null;
  if (typeof value?.id === 'string') return value.id;
  if (typeof value?.MessageId === 'string') return value.MessageId;
  const ids = (Array.isArray(value?.Records) ? value.Records : []).map(
    (record) => record.Sns?.MessageId,
  );
  return ids.length > 0 && ids.every((id) => typeof id === 'string') ? ids.join(',') : undefined;
}
