/**
 * The four evaluation steps against dynalite, s3rver and the Messages-API model server:
 * what each stores, and that a retried step (Step Functions delivers at least once)
 * neither pays the judge twice nor counts anything twice.
 */
import { capturedMetrics } from '../support/metrics.js';
import { learningStoreFor } from '../../lambdas/adapters/dynamodb/learning-store.js';
import { minisearchRetriever } from '../../lambdas/adapters/minisearch-retriever.js';
import { GapReportSchema } from '../../lambdas/core/schemas/evaluation-documents.js';
import { readFile } from 'node:fs/promises';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fault } from '../../local/model-server/faults.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-result.js';
import { AnthropicModelClient } from '../../lambdas/adapters/anthropic.js';
import { createDynamoDocumentClient, createS3Client } from '../../lambdas/adapters/aws-clients.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { DynamoS3PatternSetStore } from '../../lambdas/adapters/pattern-sets/pattern-set-store.js';
import { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { analyzeGap } from '../../lambdas/core/steps/analyze-gap.js';
import { collectArtefacts } from '../../lambdas/core/steps/collect-artefacts.js';
import type { EvaluationDeps } from '../../lambdas/core/steps/evaluation-deps.js';
import { evaluateCheapStep } from '../../lambdas/core/steps/evaluate-cheap.js';
import { judgeArtefact } from '../../lambdas/core/steps/judge-artefact.js';
import { StoredJudgementSchema } from '../../lambdas/core/schemas/evaluation-documents.js';
import type { RunConfigInput } from '../../lambdas/core/schemas/config.js';
import type { LoopState } from '../../lambdas/core/schemas/loop-state.js';
import { startEmulators, type Emulators } from '../../local/emulators.js';
import { startModelServer, type ModelServer } from '../../local/model-server/server.js';
import { makeStory } from '../support/evaluation.js';
import { makeIteration, makeRun, makeTask } from '../support/records.js';
import { templates } from '../support/templates.js';

let emulators: Emulators;
let server: ModelServer;
let deps: EvaluationDeps;
let dynamo: DynamoDBDocumentClient;

const NOW = new Date('2026-03-01T10:00:00Z');

beforeAll(async () => {
  [emulators, server] = await Promise.all([startEmulators(), startModelServer()]);
  const connection = {
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
  };
  dynamo = createDynamoDocumentClient(connection);
  const artefacts = new S3ArtefactStore({
    client: createS3Client({ ...connection, endpoint: emulators.s3Endpoint }),
    bucket: emulators.bucketName,
  });
  const clock = { now: () => NOW };
  deps = {
    runs: new DynamoRunStore({ client: dynamo, tableName: emulators.tableName }),
    artefacts,
    clock,
    templates,
    learning: learningStoreFor({
      client: dynamo,
      tableName: emulators.tableName,
      artefacts,
      clock,
    }),
    retrievers: minisearchRetriever,
    metrics: capturedMetrics().sink,
    patternSets: new DynamoS3PatternSetStore({
      client: dynamo,
      tableName: emulators.tableName,
      artefacts,
      clock,
    }),
    model: new AnthropicModelClient({
      apiKey: 'offline',
      baseURL: server.url,
      backoff: { initialDelayMs: 5 },
    }),
  };
});

afterAll(async () => {
  await Promise.all([server?.stop(), emulators?.stop()]);
});

let counter = 0;

/**
 * A run whose iteration 1 has just run: its suite wrote `documents` (stored as the runner
 * stores them) and result.json lists them, as the runner leaves it for the evaluation
 * steps (Advance records it after them).
 */
async function recordedIteration(
  evaluation: RunConfigInput['evaluation'],
  documents: string[] = ['story-a', 'story-b'],
): Promise<LoopState> {
  counter += 1;
  const runId = `eval-run-${counter}`;
  const run = makeRun({
    runId,
    projectId: `eval-project-${counter}`,
    storiesTotal: 1,
    iterationsStarted: 1,
    config: { evaluation },
  });
  await deps.runs.createRun(run, [makeTask({ runId })]);
  await deps.runs.createIteration(
    makeIteration({ runId, status: 'running', startedAt: NOW.toISOString() }),
  );
  await deps.artefacts.put(
    artefactKeys.iteration(runId, 1, 'result.json'),
    JSON.stringify(
      IterationResultSchema.parse({
        runId,
        iteration: 1,
        taskId: 'US-001',
        outcome: 'passed',
        commit: 'c'.repeat(40),
        documents,
        durations: { agentMs: 10, gatesMs: 5, runnerMs: 1 },
        startedAt: NOW.toISOString(),
        endedAt: NOW.toISOString(),
      }),
    ),
  );
  await Promise.all(
    documents.map((id, index) =>
      deps.artefacts.put(
        artefactKeys.evaluationArtefact(runId, 1, id),
        JSON.stringify({
          kind: 'document',
          id,
          documentType: 'user_story',
          content: makeStory({
            id,
            title: index === 0 ? 'Export todos as CSV' : 'Todos',
            ...(index === 0 ? {} : { acceptance_criteria: [], technical_area: null }),
          }),
        }),
      ),
    ),
  );
  return { runId, segment: 1, iteration: 1 };
}

const SUITE = { command: 'true' };

describe('Evaluation steps on the emulators', () => {
  it('skips everything when the run does not evaluate', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: false });

    // Act
    const collected = await collectArtefacts(deps, state);

    // Assess
    expect(collected.evaluation).toBeUndefined();
  });

  it('lists the suite documents, judges, scores and analyses them, and stores each step', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const before = server.requests.length;

    // Act
    const collected = await collectArtefacts(deps, state);
    const ids = collected.evaluation?.artefactIds ?? [];
    for (const artefactId of ids)
      await judgeArtefact(deps, { runId: state.runId, iteration: 1, artefactId });
    const scored = await evaluateCheapStep(deps, collected);
    const analysed = await analyzeGap(deps, scored);

    // Assess: with a suite, the documents only (the change is not judged by default).
    expect(ids).toEqual(['story-a', 'story-b']);
    expect(server.requests.length - before).toBeGreaterThanOrEqual(2);
    expect(analysed.evaluation).toBeUndefined();
    const record = await deps.runs.getIteration(state.runId, 1);
    const summary = record?.evaluation;
    expect(summary?.artefacts).toBe(2);
    expect(summary?.judged).toBe(2);
    expect(summary?.expensiveAvg).not.toBeNull();
    expect(summary?.cheapAvg).not.toBeNull();
    expect(summary?.gap).toBeCloseTo((summary?.expensiveAvg ?? 0) - (summary?.cheapAvg ?? 0), 6);
    expect(summary?.patternSetVersion).toBe(1);
    expect(await deps.artefacts.exists(summary?.logKey ?? 'none')).toBe(true);
    // The judge's calls, priced by the table, on the iteration's cost receipt.
    const judgeLine = record?.receipt?.lines.find((line) => line.role === 'judge');
    expect(judgeLine).toMatchObject({ source: 'priced', model: 'claude-sonnet-4-6' });
    expect(judgeLine?.calls).toBeGreaterThanOrEqual(2);
    expect(judgeLine?.inputTokens).toBeGreaterThan(0);
    expect(record?.receipt?.totalUsd).toBeCloseTo(summary?.costUsd ?? -1, 5);
    const run = await deps.runs.getRun(state.runId);
    expect(run?.evaluation?.lastAnalysedIteration).toBe(1);
    expect(run?.evaluation?.lastAnalysisKey).toBe(
      artefactKeys.iteration(state.runId, 1, 'gap.json'),
    );
    // The judge's QUS verdicts and the cheap mode's defects, compared per criterion.
    const gap = GapReportSchema.parse(
      JSON.parse(await deps.artefacts.getText(run!.evaluation!.lastAnalysisKey!)),
    );
    expect(gap.criteria.map((row) => row.criterion)).toContain('atomic');
    for (const row of gap.criteria) {
      expect(row.stories).toBe(2);
      expect(row.both + row.judgeOnly + row.cheapOnly + row.neither).toBe(2);
    }
  });

  it('judges the change when the run has no suite', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: true }, []);

    // Act
    const collected = await collectArtefacts(deps, state);

    // Assess
    expect(collected.evaluation?.artefactIds).toEqual(['change']);
    const change = JSON.parse(
      await deps.artefacts.getText(artefactKeys.evaluationArtefact(state.runId, 1, 'change')),
    ) as { kind: string; story: { id: string } };
    expect(change.kind).toBe('change');
    expect(change.story.id).toBe('US-001');
  });

  it('asks the judge once for an artefact, however often its Map item is delivered', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const input = { runId: state.runId, iteration: 1, artefactId: 'story-a' };

    // Act
    const first = await judgeArtefact(deps, input);
    const asked = server.requests.length;
    const again = await judgeArtefact(deps, input);

    // Assess
    expect(again).toEqual(first);
    expect(server.requests.length).toBe(asked);
    const stored = StoredJudgementSchema.parse(
      JSON.parse(await deps.artefacts.getText(artefactKeys.judgeResult(state.runId, 1, 'story-a'))),
    );
    expect(stored.result.status).toBe('ok');
  });

  it('stops a judge call when its step is told to stop, and stores no verdict', async () => {
    // Prepare: the judge answers only after 30 s; the step's Lambda is about to time out.
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const input = { runId: state.runId, iteration: 1, artefactId: 'story-a' };
    server.script(fault.slow(30_000));
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('the Lambda is about to time out')), 200);

    // Act
    const started = Date.now();
    const judged = judgeArtefact(deps, input, { signal: stop.signal });

    // Assess: the call ended with the signal, and a retry of the step will ask again.
    await expect(judged).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await deps.artefacts.exists(artefactKeys.judgeResult(state.runId, 1, 'story-a'))).toBe(
      false,
    );
    server.reset();
  });

  it('counts an analysis once when the step is retried', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const collected = await collectArtefacts(deps, state);
    for (const artefactId of collected.evaluation?.artefactIds ?? [])
      await judgeArtefact(deps, { runId: state.runId, iteration: 1, artefactId });
    await evaluateCheapStep(deps, collected);
    await analyzeGap(deps, collected);
    const [run, record, versions] = await Promise.all([
      deps.runs.getRun(state.runId),
      deps.runs.getIteration(state.runId, 1),
      deps.patternSets.listVersions(`eval-project-${counter}`),
    ]);

    // Act
    await evaluateCheapStep(deps, collected);
    await analyzeGap(deps, collected);

    // Assess: nothing moved.
    expect((await deps.runs.getRun(state.runId))?.version).toBe(run?.version);
    expect((await deps.runs.getIteration(state.runId, 1))?.version).toBe(record?.version);
    expect(await deps.patternSets.listVersions(`eval-project-${counter}`)).toEqual(versions);
  });

  it('records an artefact the judge step never stored as a failed evaluation, not a score', async () => {
    // Prepare: only one of the two Map items stored its verdict.
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const collected = await collectArtefacts(deps, state);
    await judgeArtefact(deps, { runId: state.runId, iteration: 1, artefactId: 'story-a' });
    await evaluateCheapStep(deps, collected);

    // Act
    await analyzeGap(deps, collected);

    // Assess: 1 of 2 failed is 50% > 20%: unreliable, and the re-run judged the other.
    const summary = (await deps.runs.getIteration(state.runId, 1))?.evaluation;
    expect(summary?.judgeRerun).toBe(true);
    expect(summary?.judged).toBe(2);
  });

  it('refuses to judge without a model, saying how to get one', async () => {
    // Prepare
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const withoutModel: EvaluationDeps = { ...deps, model: undefined };

    // Act
    const act = judgeArtefact(withoutModel, {
      runId: state.runId,
      iteration: 1,
      artefactId: 'story-a',
    });

    // Assess
    await expect(act).rejects.toThrow(InvalidInputError);
    await expect(act).rejects.toThrow(/ANTHROPIC_API_KEY/);
  });

  it('reads a run stored with the flat evaluation config of older runs', async () => {
    // Prepare: the run's stored item, its evaluation config replaced by the flat shape
    const state = await recordedIteration({ enabled: true, suite: SUITE });
    const flat: unknown = JSON.parse(
      await readFile(new URL('../fixtures/evaluation-config-flat.json', import.meta.url), 'utf8'),
    );
    const Key = { pk: runStoreKeys.runPk(state.runId), sk: runStoreKeys.runSk };
    const { Item } = await dynamo.send(new GetCommand({ TableName: emulators.tableName, Key }));
    const config = Item?.config as Record<string, unknown>;
    await dynamo.send(
      new PutCommand({
        TableName: emulators.tableName,
        Item: { ...Item, config: { ...config, evaluation: flat } },
      }),
    );

    // Act
    const collected = await collectArtefacts(deps, state);
    const run = await deps.runs.getRun(state.runId);

    // Assess: the flat judgeConcurrency 2 and judgeReruns 5, read from their sections
    expect(collected.evaluation).toEqual({
      artefactIds: ['story-a', 'story-b'],
      judgeConcurrency: 2,
    });
    expect(run?.config.evaluation.judge).toMatchObject({ concurrency: 2, reruns: 5 });
    expect(run?.config.evaluation.convergence.cheapThreshold).toBe(3.5);
  });
});
