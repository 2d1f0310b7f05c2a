import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction } from '../../bench/bundles/function-bundle.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { LambdaHandler, LambdaState } from '../../local/local-executions.js';
import { pascalCase } from '../../lib/functions.js';
import { LOOP_HANDLERS, LOOP_STEPS } from '../../lib/loop-steps.js';
import { EMULATOR_CREDENTIALS, openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { bundleRunner } from '../support/agent-bundle.js';
import { startEvaluationModel, type EvaluationModel } from '../support/evaluation-model.js';
import { makeSuiteRepo, suiteRunConfig, suiteStory } from '../support/evaluation-suite-repo.js';
import { runToEnd, submitLocalRun } from '../support/local-runs.js';

/** Each Task state, and the handler the stack deploys for it (lib/functions.ts). */
const DEPLOYED: Readonly<Record<LambdaState, string>> = {
  ...(Object.fromEntries(
    LOOP_STEPS.map((step) => [pascalCase(step), LOOP_HANDLERS[step]]),
  ) as Record<Exclude<LambdaState, 'RecordRunFailure'>, string>),
  // The failure-recording Task state calls the finalize function (statemachines/run-loop.asl.json).
  RecordRunFailure: LOOP_HANDLERS.finalizeRun,
};

/**
 * The run loop as deployed: the ASL file on the local engine, every Lambda task calling its
 * function's bundle (built as CDK builds it, configured by its environment alone, its SDK
 * clients reaching the emulators through the SDK's endpoint variables and the judge the
 * model server through ANTHROPIC_BASE_URL), and every iteration the runner's bundle started
 * as a process, as ECS starts the container.
 */
describe('The run loop, bundled as deployed', () => {
  let scratch: string;
  let model: EvaluationModel;
  let stack: LocalStack;
  const calls = new Map<string, number>();
  const saved = { ...process.env };
  let awsEnvironment: Record<string, string>;

  async function loadBundles(): Promise<Partial<Record<LambdaState, LambdaHandler>>> {
    const files = [...new Set(Object.values(DEPLOYED))];
    const handlers = new Map<string, LambdaHandler>();
    for (const name of files) {
      const { file } = await bundleFunction(name, await mkdtemp(join(scratch, `${name}-`)));
      const module = (await import(pathToFileURL(file).href)) as { handler: LambdaHandler };
      handlers.set(name, module.handler);
    }
    return Object.fromEntries(
      Object.entries(DEPLOYED).map(([state, name]) => [
        state,
        (input: unknown, context: Parameters<LambdaHandler>[1]) => {
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return handlers.get(name)!(input, context);
        },
      ]),
    );
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-bundled-loop-'));
    model = await startEvaluationModel();
    const [lambdas, runner] = await Promise.all([
      loadBundles(),
      bundleRunner('agent/main.ts', await mkdtemp(join(scratch, 'runner-')), { templates: true }),
    ]);
    const workspaceRoot = await mkdtemp(join(scratch, 'workspace-'));
    stack = await openLocalStack({
      retryIntervalMs: 0,
      cancelPollMs: 100,
      model: model.local,
      lambdas,
      runAgent: async ({ runId, iteration }) => {
        calls.set('runner', (calls.get('runner') ?? 0) + 1);
        const container = await execa('node', [runner], {
          reject: false,
          extendEnv: false,
          env: {
            ...awsEnvironment,
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: process.env.HOME ?? '/root',
            RALPH_RUN_ID: runId,
            RALPH_ITERATION: String(iteration),
            RALPH_WORKSPACE_ROOT: workspaceRoot,
          },
        });
        if (container.exitCode !== 0)
          throw new Error(`the runner exited ${container.exitCode}: ${container.stdout}`);
      },
    });
    const { endpoints } = stack;
    awsEnvironment = {
      TABLE_NAME: endpoints.tableName,
      BUCKET_NAME: endpoints.bucketName,
      AWS_REGION: endpoints.region,
      AWS_ACCESS_KEY_ID: EMULATOR_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: EMULATOR_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamoEndpoint,
      AWS_ENDPOINT_URL_S3: endpoints.s3Endpoint,
    };
    Object.assign(process.env, awsEnvironment, {
      ANTHROPIC_API_KEY: 'offline',
      ANTHROPIC_BASE_URL: model.server.url,
    });
  }, 180_000);

  afterAll(async () => {
    process.env = saved;
    await stack?.close();
    await model?.server.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('runs a whole evaluated run to its end through the bundles alone', async () => {
    // Prepare: the judge scores every story 4.5; proposals name a phrase the stories hold.
    model.scenario('bundled-', {
      judge: () => 4.5,
      propose: () => ({
        category: 'value_phrases',
        pattern: 'by hand',
        rationale: 'the judge credits the pain point the story names',
      }),
    });
    const repo = await makeSuiteRepo({
      project: 'Bundled Loop',
      stories: ['bundled-1', 'bundled-2'].map((id) => suiteStory(id)),
      storyCount: 2,
    });

    // Act
    const runId = await submitLocalRun(stack, {
      repo: repo.path,
      prd: repo.prd,
      config: suiteRunConfig({ patterns: { validateAfterTests: 3 } }, { maxIterations: 4 }),
    });
    const { run, iterations } = await runToEnd(stack, runId);
    await repo.cleanup();

    // Assess: the run ended as the in-process loop ends it, every step through a bundle.
    expect(run.status).toBe('completed');
    expect(run.storiesPassed).toBe(2);
    expect(iterations.map((record) => record.outcome)).toEqual(['passed', 'passed']);
    // Every function but pause-run (nothing pauses) and open-fix-pull-request (not an
    // investigate run: test/integration/local-loop-fix-pull-request.test.ts runs it), and
    // the runner.
    const ran = [...new Set(Object.values(DEPLOYED)), 'runner'].filter(
      (name) => name !== 'pause-run' && name !== 'open-fix-pull-request',
    );
    for (const name of ran) expect(calls.get(name) ?? 0, name).toBeGreaterThan(0);
    const summary = iterations[0]?.evaluation;
    expect(summary?.expensiveAvg).toBe(4.5);
    expect(model.server.requests.length).toBeGreaterThan(0);
    expect(await stack.deps.artefacts.exists(artefactKeys.summary(runId))).toBe(true);
  }, 300_000);
});
