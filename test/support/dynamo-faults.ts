/**
 * DynamoDB clients on the emulator's table with faults added in the SDK's middleware: a
 * reply lost after the write landed, throttled reads, short query pages, unprocessed batch
 * items. The table behind them is the real emulator; only what crosses the wire is
 * changed, as the network or DynamoDB itself would change it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Emulators } from '../../local/emulators.js';

/** A plain client on the emulator, for a test to add faults to; destroy it after. */
export function emulatorDynamoClient(emulators: Emulators, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  });
}

/** What a hook does to one request once it was sent: nothing, or lose its reply. */
export type HookAction = 'lose-reply' | void;

/**
 * Runs `intercept` before each `commandName` request the client sends (retries included),
 * with its marshalled input and its number (1-based). `lose-reply` lets the request reach
 * the table, then fails the attempt as a reset connection does, so the SDK retries it.
 * Returns how many such requests were sent.
 *
 * @example
 * const sent = hookRequests(client, 'PutItemCommand', async ({ count }) =>
 *   count === 1 ? 'lose-reply' : undefined);
 */
export function hookRequests(
  client: DynamoDBClient,
  commandName: string,
  intercept: (request: { input: unknown; count: number }) => Promise<HookAction>,
): () => number {
  let count = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== commandName) return next(args);
      count += 1;
      const action = await intercept({ input: args.input, count });
      const result = await next(args);
      // The write reached the table; its reply is lost as a reset connection loses it.
      if (action === 'lose-reply')
        throw Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' });
      return result;
    },
    { step: 'deserialize', name: `hook${commandName}` },
  );
  return () => count;
}

/**
 * Loses the reply to the first `commandName` request: the write lands, and the SDK's retry
 * sends the same request again, which then fails on its own condition. This is what a
 * timeout after a landed write looks like. Returns how many requests were sent.
 */
export function loseFirstReply(client: DynamoDBClient, commandName: string): () => number {
  return hookRequests(client, commandName, async ({ count }) =>
    count === 1 ? 'lose-reply' : undefined,
  );
}

/**
 * Every GetItem of the client fails with an error of this name and HTTP status, before it
 * is sent. The default is DynamoDB throttling the read.
 */
export function failReads(
  client: DynamoDBClient,
  { name, status }: { name: string; status: number } = { name: 'ThrottlingException', status: 400 },
): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetItemCommand')
        throw Object.assign(new Error(`${name} (injected)`), {
          name,
          $metadata: { httpStatusCode: status },
        });
      return next(args);
    },
    { step: 'initialize', name: 'failReads' },
  );
}

/** Query pages of at most `pageSize` items, so that paging is exercised. */
export function shortPages(client: DynamoDBClient, pageSize: number): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'QueryCommand') return next(args);
      const input = args.input as { Limit?: number };
      return next({
        ...args,
        input: { ...input, Limit: Math.min(input.Limit ?? pageSize, pageSize) },
      });
    },
    { step: 'initialize', name: 'shortPages' },
  );
}

/**
 * The first `calls` BatchWriteItem calls send only `accepted` of their requests and report
 * the rest as UnprocessedItems, as DynamoDB does when throttled. Returns how many calls
 * were cut short.
 */
export function leaveUnprocessed(
  client: DynamoDBClient,
  calls: number,
  accepted: number,
): () => number {
  let cut = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'BatchWriteItemCommand' || cut >= calls) return next(args);
      cut += 1;
      const input = args.input as { RequestItems: Record<string, unknown[]> };
      const [table, requests] = Object.entries(input.RequestItems)[0] ?? ['', []];
      const result = await next({
        ...args,
        input: { ...input, RequestItems: { [table]: requests.slice(0, accepted) } },
      });
      (result.output as { UnprocessedItems?: unknown }).UnprocessedItems = {
        [table]: requests.slice(accepted),
      };
      return result;
    },
    { step: 'initialize', name: 'leaveUnprocessed' },
  );
  return () => cut;
}
