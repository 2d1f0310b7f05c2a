/**
 * The few Step Functions API calls the deployed code makes (StartExecution and
 * DescribeExecution, from the API's start, cancel and resume), served on loopback in Step Functions' own wire protocol (AWS JSON 1.0,
 * `X-Amz-Target: AWSStepFunctions.<Operation>`), so the real `@aws-sdk/client-sfn` — in a
 * handler bundled as deployed — starts executions on the local state machine. Errors come
 * back as Step Functions sends them (`__type`, `message`), so the SDK raises its own
 * exception classes (ExecutionAlreadyExists, …).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../loopback/listen.js';

export interface SfnEndpointOptions {
  /** The state machine the endpoint runs; another ARN is StateMachineDoesNotExist. */
  stateMachineArn: string;
  /** Starts a named execution; rejects with an error named ExecutionExistsError on a repeat. */
  start(input: { name: string; input: unknown }): Promise<{ executionArn: string }>;
  /** Whether the named execution still runs; undefined when it was never started. */
  running(name: string): Promise<boolean | undefined>;
}

export interface SfnEndpoint {
  /** `http://127.0.0.1:PORT`, for `endpoint` or `AWS_ENDPOINT_URL_SFN`. */
  url: string;
  close(): Promise<void>;
}

class SfnFault extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export async function startSfnEndpoint(options: SfnEndpointOptions): Promise<SfnEndpoint> {
  const server = createServer((request, response) => {
    handle(request, options).then(
      (body) => reply(response, 200, body),
      (error: unknown) => {
        const fault =
          error instanceof SfnFault
            ? error
            : new SfnFault('InternalFailure', (error as Error).message, 500);
        reply(response, fault.status, { __type: fault.type, message: fault.message });
      },
    );
  });
  return listenOnLoopback(server);
}

async function handle(request: IncomingMessage, options: SfnEndpointOptions): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const target = String(request.headers['x-amz-target'] ?? '');
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<
    string,
    unknown
  >;
  if (target === 'AWSStepFunctions.DescribeExecution') return describe(body, options);
  if (target !== 'AWSStepFunctions.StartExecution')
    throw new SfnFault('UnknownOperationException', `${target} is not served locally`);
  if (body.stateMachineArn !== options.stateMachineArn)
    throw new SfnFault(
      'StateMachineDoesNotExist',
      `State Machine Does Not Exist: '${String(body.stateMachineArn)}'`,
    );
  const name = String(body.name ?? '');
  if (!/^[\w-]{1,80}$/.test(name)) throw new SfnFault('InvalidName', `Invalid Name: '${name}'`);
  let input: unknown;
  try {
    input = JSON.parse(String(body.input ?? '{}'));
  } catch {
    throw new SfnFault('InvalidExecutionInput', 'Invalid State Machine Execution Input');
  }
  try {
    const { executionArn } = await options.start({ name, input });
    return { executionArn, startDate: Date.now() / 1000 };
  } catch (error) {
    if ((error as Error).name === 'ExecutionExistsError')
      throw new SfnFault('ExecutionAlreadyExists', `Execution Already Exists: '${name}'`);
    throw error;
  }
}

/** DescribeExecution, as far as callers read it: the status. */
async function describe(
  body: Record<string, unknown>,
  options: SfnEndpointOptions,
): Promise<unknown> {
  const executionArn = String(body.executionArn ?? '');
  const prefix = `${options.stateMachineArn.replace(':stateMachine:', ':execution:')}:`;
  const name = executionArn.startsWith(prefix) ? executionArn.slice(prefix.length) : undefined;
  const running = name === undefined ? undefined : await options.running(name);
  if (running === undefined)
    throw new SfnFault('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
  return {
    executionArn,
    stateMachineArn: options.stateMachineArn,
    name,
    status: running ? 'RUNNING' : 'SUCCEEDED',
    startDate: Date.now() / 1000,
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': String(Buffer.byteLength(text)),
    'x-amzn-requestid': crypto.randomUUID(),
  });
  response.end(text);
}
