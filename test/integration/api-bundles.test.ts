import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction } from '../../bench/bundles/function-bundle.js';
import { apiGatewayEvent, lambdaContext } from '../../local/api-server/api-event.js';
import { EMULATOR_CREDENTIALS, openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { LOCAL_STATE_MACHINE_ARN } from '../../local/run-loop-definition.js';
import { startSfnEndpoint, type SfnEndpoint } from '../../local/sfn-endpoint/sfn-endpoint.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { waitUntil } from '../support/local-runs.js';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The API functions as deployed: each handler bundled the way lib/function-defaults.ts
 * bundles it (minified ESM, templates beside it), configured only by its environment, its
 * SDK clients pointed at the emulators by the SDK's own endpoint variables, and started
 * executions reaching the local state machine through the Step Functions wire protocol.
 */
describe('The Run API functions, bundled as deployed', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ralph-api-bundles-'));
  let stack: LocalStack;
  let sfn: SfnEndpoint;
  /** The run the first test starts; the others take it from there. */
  let startedRunId = '';
  const saved = { ...process.env };

  async function load(group: string): Promise<Handler> {
    const { file } = await bundleFunction(`api-${group}`, mkdtempSync(join(scratch, `${group}-`)));
    const module = (await import(pathToFileURL(file).href)) as {
      handler: Handler;
    };
    return module.handler;
  }

  async function invoke(handler: Handler, method: string, path: string, body?: unknown) {
    const event = apiGatewayEvent(
      {
        method,
        url: new URL(path, 'https://abc123.execute-api.eu-west-1.amazonaws.com'),
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
        sourceIp: '203.0.113.7',
        accessKeyId: 'AKIDEXAMPLE',
      },
      new Date(),
    );
    const result = await handler(event, lambdaContext(event.requestContext.requestId));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer is asserted on below; the routes' schemas type the handlers
    const json: any = JSON.parse(result.body ?? 'null');
    return { status: result.statusCode, json };
  }

  beforeAll(async () => {
    stack = await openLocalStack({ retryIntervalMs: 0, cancelPollMs: 100 });
    sfn = await startSfnEndpoint({
      stateMachineArn: LOCAL_STATE_MACHINE_ARN,
      start: async ({ input }) => {
        const { executionId } = await stack.executions.startSegment(
          input as { runId: string; segment: number },
        );
        return { executionArn: executionId };
      },
      running: async (name) => stack.executions.executionRunning(name),
    });
    const { endpoints } = stack;
    Object.assign(process.env, {
      TABLE_NAME: endpoints.tableName,
      BUCKET_NAME: endpoints.bucketName,
      STATE_MACHINE_ARN: LOCAL_STATE_MACHINE_ARN,
      AWS_REGION: endpoints.region,
      AWS_ACCESS_KEY_ID: EMULATOR_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: EMULATOR_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamoEndpoint,
      AWS_ENDPOINT_URL_S3: endpoints.s3Endpoint,
      AWS_ENDPOINT_URL_SFN: sfn.url,
    });
  }, 60_000);

  afterAll(async () => {
    process.env = saved;
    await sfn.close();
    await stack.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('start, read and openapi: a run started by the start function completes and reads back', async () => {
    // Arrange
    const [start, read, openapi] = await Promise.all([
      load('start'),
      load('read'),
      load('openapi'),
    ]);
    const repo = await makeGitRepo({ 'prd.json': '{}' });
    const body = { repo: 'https://github.com/acme/app.git', prd: makePrd(1) };

    // Act: a deployment refuses a local path; a git URL is accepted (its clone fails here,
    // which the run records), and the function's own SDK starts the execution.
    const local = await invoke(start, 'POST', '/runs', { ...body, repo: repo.path });
    const started = await invoke(start, 'POST', '/runs', {
      ...body,
      config: { agent: { command: WRITING_AGENT } },
    });
    await waitUntil(async () => {
      const { status, json } = await invoke(read, 'GET', `/runs/${started.json.runId}`);
      return status === 200 && json.run.status !== 'running';
    });
    const view = await invoke(read, 'GET', `/runs/${started.json.runId}`);
    startedRunId = started.json.runId;
    const document = await invoke(openapi, 'GET', '/openapi.json');
    await repo.cleanup();

    // Assess
    expect(local.status).toBe(400);
    expect(local.json.errors[0]).toMatch(/must be pushed first/);
    expect(started.status).toBe(202);
    expect(started.json.executionId).toBe(
      `${LOCAL_STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${started.json.runId}-s1`,
    );
    expect(view.json.run.repo).toEqual({ kind: 'git', url: body.repo });
    expect(view.json.run.status).not.toBe('running');
    expect(document.json.openapi).toBe('3.1.0');
  }, 120_000);

  it('cancel through the control function ends at once a run stored as running whose execution is gone', async () => {
    // Arrange: a copy of the finished run, stored as running, that no execution runs (as
    // after an execution failed outside the loop's own catches).
    const control = await load('control');
    const run = (await stack.deps.runs.getRun(startedRunId))!;
    const orphanId = `${run.runId}-orphan`;
    const tasks = await stack.deps.runs.listTasks(run.runId);
    await stack.deps.runs.createRun(
      { ...run, runId: orphanId, status: 'running', segment: 7, version: 1 },
      tasks.map((task) => ({ ...task, runId: orphanId, version: 1 })),
    );

    // Act
    const cancel = await invoke(control, 'POST', `/runs/${orphanId}/cancel`);
    const again = await invoke(control, 'POST', `/runs/${orphanId}/cancel`);

    // Assess
    expect(cancel.status).toBe(200);
    expect(cancel.json.run.status).toBe('cancelled');
    expect(again.status).toBe(409);
  }, 120_000);

  it('resume through the control function: a repeated start of a segment is refused as Step Functions refuses it', async () => {
    // Arrange: the finished run's next segment has already run once (and found nothing to
    // do); then the run is stored as paused before it.
    const control = await load('control');
    const { segment } = (await stack.deps.runs.getRun(startedRunId))!;
    await stack.executions.startSegment({ runId: startedRunId, segment: segment + 1 });
    await stack.executions.waitForRun(startedRunId);
    const run = (await stack.deps.runs.getRun(startedRunId))!;
    await stack.deps.runs.saveRun({ ...run, status: 'paused', segment }, run.version);

    // Act
    const resume = await invoke(control, 'POST', `/runs/${run.runId}/resume`);

    // Assess
    expect(resume.status).toBe(409);
    expect(resume.json.detail).toMatch(
      new RegExp(`execution ${run.runId}-s${segment + 1} already exists`),
    );
  }, 120_000);
});
