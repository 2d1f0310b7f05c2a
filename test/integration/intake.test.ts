/**
 * The intake against the emulators: a delivery's events become error groups, a project's
 * groups one batch, a closed batch one investigate run. Repeats, replays, races, limits,
 * a failing scheduler and the store unreachable, each with what is (not) written.
 */
import { describe, expect, it } from 'vitest';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { InvalidInputError, TransientError } from '../../lambdas/core/errors.js';
import { closeBatch } from '../../lambdas/core/intake/close-batch.js';
import { recordDelivery, type Delivery } from '../../lambdas/core/intake/record-delivery.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { RunRequestSchema } from '../../lambdas/core/schemas/run-request.js';
import { ErrorGroupSchema } from '../../lambdas/core/schemas/error-group.js';
import { investigateTaskId } from '../../lambdas/core/incidents/short-fingerprint.js';
import {
  useEmulatorStores,
  unreachableConnection,
  type EmulatorStores,
} from '../support/emulator-stores.js';
import { hookFixture, hookFixtureJson } from '../support/hook-fixtures.js';
import { intakeHarness, type IntakeHarness } from '../support/intake-deps.js';
import { makeRun } from '../support/records.js';

let stores: EmulatorStores;
useEmulatorStores((ready) => (stores = ready));

let counter = 0;
const unique = (label: string) => `${label}-${(counter += 1)}`;

/** A Sentry issue delivery of the recorded payload, for `project`'s issue `issueId`. */
function issueDelivery(
  project: string,
  issueId: string,
  options: { action?: string; count?: number } = {},
): Delivery {
  const payload = hookFixtureJson<{ action: string; data: { issue: Record<string, unknown> } }>(
    'sentry/issue.created.json',
  );
  payload.action = options.action ?? 'created';
  payload.data.issue.id = issueId;
  payload.data.issue.count = String(options.count ?? 1);
  payload.data.issue.project = { id: `${project}-id`, name: project, platform: '', slug: project };
  return {
    source: 'sentry',
    headers: { 'sentry-hook-resource': 'issue' },
    body: JSON.stringify(payload),
    replayKey: unique('sentry:key'),
  };
}

/** A route for `project` to this repository, with `investigate` settings. */
async function routed(harness: IntakeHarness, project: string, investigate = {}) {
  await harness.route(project, {
    matches: [{ kind: 'sentry-project', key: project }],
    repo: '/tmp/repos/shop',
    investigate,
  });
}

describe('recordDelivery', () => {
  it('records an error no route names as unrouted, answered 202, and starts nothing', async () => {
    const harness = intakeHarness(stores);
    const project = unique('nobody');

    const { status, answer } = await recordDelivery(
      harness.deps,
      issueDelivery(project, unique('i')),
    );

    expect(status).toBe(202);
    expect(answer).toMatchObject({
      outcome: 'recorded',
      events: [{ outcome: 'unrouted', status: 'unrouted' }],
    });
    const [event] = answer.outcome === 'recorded' ? answer.events : [];
    expect(event?.reason).toContain(`sentry-project "${project}"`);
    const group = await harness.deps.incidents.getGroup(event!);
    expect(group).toMatchObject({ status: 'unrouted', deliveries: 1 });
    expect(group?.projectId).toBeUndefined();
    expect(harness.scheduled).toEqual([]);
  });

  it('answers a replayed delivery 200 duplicate and counts nothing twice', async () => {
    const harness = intakeHarness(stores);
    const project = unique('replay');
    await routed(harness, project);
    const delivery = issueDelivery(project, unique('i'));

    await recordDelivery(harness.deps, delivery);
    const replay = await recordDelivery(harness.deps, delivery);

    expect(replay).toEqual({
      status: 200,
      answer: { outcome: 'duplicate', reason: 'this delivery was received already' },
    });
    const group = await harness.deps.incidents.getGroup({
      source: 'sentry',
      fingerprint: fingerprintOf(delivery),
    });
    expect(group?.deliveries).toBe(1);
    expect(harness.scheduled).toHaveLength(1);
  });

  it('answers an installation delivery 200 ignored with its reason', async () => {
    const harness = intakeHarness(stores);
    const { status, answer } = await recordDelivery(harness.deps, {
      source: 'sentry',
      headers: { 'sentry-hook-resource': 'installation' },
      body: hookFixture('sentry/installation.created.json'),
      replayKey: unique('sentry:install'),
    });
    expect(status).toBe(200);
    expect(answer).toMatchObject({
      outcome: 'ignored',
      reason: expect.stringContaining('installation'),
    });
  });

  it('refuses malformed JSON and an unknown resource before anything is written', async () => {
    const harness = intakeHarness(stores);
    const malformed = { ...issueDelivery('x', '1'), body: '{"action": "created", ' };
    const unknown = { ...issueDelivery('x', '2'), headers: { 'sentry-hook-resource': 'seer' } };

    const bad = await recordDelivery(harness.deps, malformed).catch((error: unknown) => error);
    const strange = await recordDelivery(harness.deps, unknown).catch((error: unknown) => error);

    expect(bad).toBeInstanceOf(InvalidInputError);
    expect(strange).toBeInstanceOf(InvalidInputError);
    expect((strange as InvalidInputError).issues.join()).toMatch(
      /unknown resource "seer"; known: .*issue/,
    );
    // Neither replay key was kept: the same deliveries, fixed, would be taken.
    const window = { receivedAt: '2026-11-27T07:00:00Z', expiresAt: '2026-11-27T07:10:00Z' };
    expect(await harness.deps.incidents.rememberDelivery(malformed.replayKey, window)).toBe(true);
    expect(await harness.deps.incidents.rememberDelivery(unknown.replayKey, window)).toBe(true);
  });

  it('makes one run of the same error fired 50 times in a minute, its counts added up', async () => {
    // Prepare
    const harness = intakeHarness(stores);
    const project = unique('storm');
    await routed(harness, project);
    const issueId = unique('i');
    const deliveries = Array.from({ length: 50 }, (_, n) =>
      issueDelivery(project, issueId, { action: n === 0 ? 'created' : 'unresolved', count: n + 1 }),
    );

    // Act: all at once, as 50 Lambdas would take them
    const answers = await Promise.all(
      deliveries.map((delivery) => recordDelivery(harness.deps, delivery)),
    );
    harness.at('2026-11-27T07:05:00Z');
    const batches = new Set(
      answers.flatMap(({ answer }) =>
        answer.outcome === 'recorded' ? answer.events.map((e) => e.batchId) : [],
      ),
    );
    const closes = await Promise.all(
      [...batches].map((batchId) =>
        closeBatch(harness.deps, { projectId: project, batchId: batchId! }),
      ),
    );

    // Assess
    expect(batches.size).toBe(1);
    expect(harness.started).toHaveLength(1);
    const group = await harness.deps.incidents.getGroup({
      source: 'sentry',
      fingerprint: `issue:${issueId}`,
    });
    expect(group).toMatchObject({
      status: 'investigating',
      deliveries: 50,
      seen: 50,
      runId: closes[0]!.runId,
    });
  });

  it('puts two groups racing in one batch: one run with both as tasks', async () => {
    // Prepare
    const harness = intakeHarness(stores);
    const project = unique('race');
    await routed(harness, project);
    const [a, b] = [issueDelivery(project, unique('a')), issueDelivery(project, unique('b'))];

    // Act
    const answers = await Promise.all(
      [a, b].map((delivery) => recordDelivery(harness.deps, delivery)),
    );
    const [batchId] = new Set(
      answers.map(({ answer }) =>
        answer.outcome === 'recorded' ? answer.events[0]!.batchId : undefined,
      ),
    );
    const closed = await closeBatch(harness.deps, { projectId: project, batchId: batchId! });

    // Assess
    // Both may hand the close to the scheduler (each read the batch before the other marked
    // it scheduled): harmless, a batch's close is one execution by name. One batch, one run.
    const scheduled = harness.scheduled.filter((batch) => batch.projectId === project);
    expect(new Set(scheduled.map((batch) => batch.batchId))).toEqual(new Set([batchId]));
    expect(closed.tasks).toHaveLength(2);
    const request = RunRequestSchema.parse(
      JSON.parse(await harness.deps.artefacts.getText(artefactKeys.request(closed.runId!))),
    );
    expect(request.investigation?.errors.map((error) => error.fingerprint).sort()).toEqual(
      [fingerprintOf(a), fingerprintOf(b)].sort(),
    );
    expect(request.prd.userStories.map((story) => story.id).sort()).toEqual(
      [...closed.tasks].sort(),
    );
    for (const taskId of closed.tasks)
      ErrorGroupSchema.parse(
        JSON.parse(
          await harness.deps.artefacts.getText(artefactKeys.errorGroup(closed.runId!, taskId)),
        ),
      );
  });

  it('holds a group past the hourly run limit, with the reason, and runs it after the hour', async () => {
    // Prepare
    const harness = intakeHarness(stores);
    const project = unique('limit');
    await routed(harness, project, { maxRunsPerHour: 1 });
    const first = await recordDelivery(harness.deps, issueDelivery(project, unique('first')));
    await closeBatch(harness.deps, { projectId: project, batchId: batchOf(first) });
    const issueId = unique('second');

    // Act
    const held = await recordDelivery(harness.deps, issueDelivery(project, issueId));
    harness.at('2026-11-27T08:00:01Z');
    const later = await recordDelivery(
      harness.deps,
      issueDelivery(project, issueId, { action: 'unresolved' }),
    );

    // Assess
    expect(held.answer).toMatchObject({
      events: [
        { outcome: 'held', status: 'held', reason: expect.stringContaining('maxRunsPerHour') },
      ],
    });
    expect(later.answer).toMatchObject({ events: [{ outcome: 'queued', status: 'pending' }] });
  });

  it('closes a batch without a window at once: the run starts with the delivery', async () => {
    const harness = intakeHarness(stores);
    const project = unique('now');
    await routed(harness, project, { batchWindowSeconds: 0 });
    const delivery = issueDelivery(project, unique('i'));

    const { answer } = await recordDelivery(harness.deps, delivery);

    expect(harness.started).toHaveLength(1);
    expect(harness.scheduled).toEqual([]);
    // The answer shows the group as the close left it.
    expect(answer).toMatchObject({ events: [{ outcome: 'queued', status: 'investigating' }] });
    const group = await harness.deps.incidents.getGroup({
      source: 'sentry',
      fingerprint: fingerprintOf(delivery),
    });
    expect(group?.status).toBe('investigating');
  });

  it('loses no batch when the scheduler fails: the retried delivery schedules it', async () => {
    // Prepare
    let failing = true;
    const scheduled: string[] = [];
    const harness = intakeHarness(stores, {
      scheduler: {
        scheduleClose: async ({ batchId }) => {
          if (failing) throw new TransientError('the scheduler did not answer');
          scheduled.push(batchId);
        },
      },
    });
    const project = unique('sched');
    await routed(harness, project);
    const delivery = issueDelivery(project, unique('i'));

    // Act
    const first = await recordDelivery(harness.deps, delivery).catch((error: unknown) => error);
    failing = false;
    const retried = await recordDelivery(harness.deps, delivery);

    // Assess
    expect(first).toBeInstanceOf(TransientError);
    expect(retried.status).toBe(202);
    const batch = await harness.deps.incidents.latestBatch(project);
    expect(batch).toMatchObject({ status: 'open', closeScheduled: true });
    expect(scheduled).toEqual([batch!.batchId]);
  });

  it('runs a fixed group again only when it regresses (unresolved)', async () => {
    // Prepare
    const harness = intakeHarness(stores);
    const project = unique('regress');
    await routed(harness, project);
    const issueId = unique('i');
    const first = await recordDelivery(harness.deps, issueDelivery(project, issueId));
    await closeBatch(harness.deps, { projectId: project, batchId: batchOf(first) });
    const key = { source: 'sentry' as const, fingerprint: `issue:${issueId}` };
    const investigated = (await harness.deps.incidents.getGroup(key))!;
    await harness.deps.incidents.saveGroup(
      { ...investigated, status: 'fixed' },
      investigated.version,
    );

    // Act
    const repeat = await recordDelivery(
      harness.deps,
      issueDelivery(project, issueId, { action: 'created' }),
    );
    const regression = await recordDelivery(
      harness.deps,
      issueDelivery(project, issueId, { action: 'unresolved' }),
    );

    // Assess
    expect(repeat.answer).toMatchObject({ events: [{ outcome: 'repeat', status: 'fixed' }] });
    expect(regression.answer).toMatchObject({ events: [{ outcome: 'queued', status: 'pending' }] });
    expect(await harness.deps.incidents.getGroup(key)).toMatchObject({
      regressions: 1,
      deliveries: 3,
    });
  });

  it('runs a group again whose run ended without concluding it; one still running only counts', async () => {
    // Prepare: the group's batch closed, its run created, and still running
    const harness = intakeHarness(stores);
    const project = unique('abandoned');
    await routed(harness, project);
    const issueId = unique('i');
    const first = await recordDelivery(harness.deps, issueDelivery(project, issueId));
    await closeBatch(harness.deps, { projectId: project, batchId: batchOf(first) });
    const key = { source: 'sentry' as const, fingerprint: `issue:${issueId}` };
    const { runId } = (await harness.deps.incidents.getGroup(key))!;
    await stores.runs.createRun(makeRun({ runId: runId!, status: 'running' }), []);

    // Act: a repeat while it runs; then the run fails before its pull-request step
    const whileRunning = await recordDelivery(harness.deps, issueDelivery(project, issueId));
    const run = (await stores.runs.getRun(runId!))!;
    await stores.runs.saveRun({ ...run, status: 'failed' }, run.version);
    const afterFailure = await recordDelivery(harness.deps, issueDelivery(project, issueId));

    // Assess
    expect(whileRunning.answer).toMatchObject({
      events: [{ outcome: 'repeat', status: 'investigating', runId }],
    });
    expect(afterFailure.answer).toMatchObject({
      events: [{ outcome: 'queued', status: 'pending' }],
    });
    const [event] = afterFailure.answer.outcome === 'recorded' ? afterFailure.answer.events : [];
    expect(event?.runId).not.toBe(runId);
  });

  it('answers a store it cannot reach with a TransientError, and starts nothing', async () => {
    const harness = intakeHarness(stores);
    const down = createDynamoDocumentClient(unreachableConnection(stores.emulators));
    const deps = {
      ...harness.deps,
      incidents: new DynamoIncidentStore({ client: down, tableName: 'ralph' }),
    };

    const failure = await recordDelivery(deps, issueDelivery(unique('down'), unique('i'))).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(TransientError);
    expect(harness.started).toEqual([]);
    down.destroy();
  });
});

describe('closeBatch', () => {
  it('does nothing twice when retried, and moves groups past maxErrorsPerRun to the next batch', async () => {
    // Prepare
    const harness = intakeHarness(stores);
    const project = unique('cap');
    await routed(harness, project, { maxErrorsPerRun: 1 });
    const answers = [];
    for (const id of [unique('a'), unique('b')])
      answers.push(await recordDelivery(harness.deps, issueDelivery(project, id)));
    const ref = { projectId: project, batchId: batchOf(answers[0]!) };

    // Act
    const first = await closeBatch(harness.deps, ref);
    const again = await closeBatch(harness.deps, ref);

    // Assess
    expect(first).toMatchObject({ moved: 1 });
    expect(first.tasks).toHaveLength(1);
    expect(again.tasks).toEqual(first.tasks);
    expect(harness.started).toEqual([`${first.runId}#1`]);
    const next = await harness.deps.incidents.latestBatch(project);
    expect(next?.batchId).not.toBe(ref.batchId);
    expect(next?.groups).toHaveLength(1);
    expect(investigateTaskId(next!.groups[0]!)).not.toBe(first.tasks[0]);
  });
});

function fingerprintOf(delivery: Delivery): string {
  return `issue:${(JSON.parse(delivery.body) as { data: { issue: { id: string } } }).data.issue.id}`;
}

function batchOf(answer: Awaited<ReturnType<typeof recordDelivery>>): string {
  if (answer.answer.outcome !== 'recorded')
    throw new Error(`not recorded: ${answer.answer.outcome}`);
  return answer.answer.events[0]!.batchId!;
}
