/**
 * The run list's page cursor: the GSI key DynamoDB returned as LastEvaluatedKey, as an
 * opaque base64url string. A cursor is parsed back strictly, so a cursor that was not
 * handed out (edited, truncated, from another list) is refused as invalid input instead of
 * reaching DynamoDB as a start key.
 */
import { z } from 'zod';
import { InvalidInputError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import { TABLE_KEYS } from '../table-design.js';
import { runStoreKeys } from './run-items.js';
import type { Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

const RunsCursorSchema = z.strictObject({
  [PK]: z.string().startsWith('RUN#'),
  [SK]: z.literal(runStoreKeys.runSk),
  [gsi1.partitionKey]: z.literal(runStoreKeys.runsGsi1pk),
  [gsi1.sortKey]: z.string().min(1),
});

export function encodeRunsCursor(lastKey: Item): string {
  return Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url');
}

export function decodeRunsCursor(cursor: string): Item {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const parsed = RunsCursorSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidInputError('cursor', [
      `cursor: not a cursor this list handed out (${formatZodIssues(parsed.error).join('; ')})`,
    ]);
  return parsed.data;
}
