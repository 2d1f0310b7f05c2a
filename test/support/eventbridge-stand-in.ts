/**
 * EventBridge as the SDK meets it for `PutEvents` (the JSON 1.1 protocol: a signed POST
 * naming `X-Amz-Target: AWSEvents.PutEvents`). It keeps the entries it took, each with the
 * bus it was put on, and answers like EventBridge: 200 with `FailedEntryCount` and one
 * result per entry, an entry it was told to refuse carrying an `ErrorCode` instead of an id.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from '../../local/loopback/listen.js';

/** One entry as PutEvents takes it, with its `Detail` parsed. */
export interface PutEvent {
  busName: string;
  source: string;
  detailType: string;
  detail: unknown;
  /** Whether the request carried a SigV4 authorization. */
  signed: boolean;
}

export interface EventBridgeStandIn extends Listening {
  /** The entries taken, in order (refused ones are not). */
  readonly events: readonly PutEvent[];
  /** Refuses the next `count` entries with this error code (`InternalFailure`, `AccessDeniedException`). */
  refuseNext(count: number, errorCode: string): void;
}

interface PutEventsEntry {
  EventBusName?: string;
  Source?: string;
  DetailType?: string;
  Detail?: string;
}

function answer(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
  });
  response.end(JSON.stringify(body));
}

export async function startEventBridgeStandIn(): Promise<EventBridgeStandIn> {
  const events: PutEvent[] = [];
  const refusals: string[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const signed = /Credential=[^/]+\//.test(request.headers.authorization ?? '');
    if (request.headers['x-amz-target'] !== 'AWSEvents.PutEvents' || !signed) {
      response.setHeader('x-amzn-errortype', 'UnknownOperationException');
      return answer(response, 400, { __type: 'UnknownOperationException' });
    }
    const { Entries = [] } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      Entries?: PutEventsEntry[];
    };
    const results = Entries.map((entry) => {
      const refused = refusals.shift();
      if (refused) return { ErrorCode: refused, ErrorMessage: 'refused by the stand-in' };
      events.push({
        busName: entry.EventBusName ?? 'default',
        source: entry.Source ?? '',
        detailType: entry.DetailType ?? '',
        detail: JSON.parse(entry.Detail ?? 'null') as unknown,
        signed,
      });
      return { EventId: randomUUID() };
    });
    answer(response, 200, {
      FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length,
      Entries: results,
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    events,
    refuseNext: (count, errorCode) => refusals.push(...Array<string>(count).fill(errorCode)),
  };
}
