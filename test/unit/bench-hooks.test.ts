import { describe, expect, it } from 'vitest';
import { inFlight } from '../../bench/hooks/burst.js';
import { issueBody, newGroupProject, projectsFor } from '../../bench/hooks/deliveries.js';
import { PortTimer } from '../../bench/hooks/port-timer.js';
import { whereRows, workloadSummary } from '../../bench/hooks/summary.js';
import { MAX_BATCH_GROUPS } from '../../lambdas/core/intake/batching.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { VersionConflictError } from '../../lambdas/core/errors.js';
import { hookFixture, onlyEvent } from '../support/hook-fixtures.js';

const template = hookFixture('sentry/issue.created.json');
const eventOf = (body: string) =>
  onlyEvent(normalise('sentry', { 'sentry-hook-resource': 'issue' }, body));

describe('bench/hooks: the deliveries', () => {
  it('gives each new-group delivery an issue of its own, a project per full batch', () => {
    // Act
    const events = [0, 1, MAX_BATCH_GROUPS - 1, MAX_BATCH_GROUPS].map((n) =>
      eventOf(issueBody(template, 'new-groups', n)),
    );

    // Assess
    expect(new Set(events.map((event) => event.fingerprint)).size).toBe(4);
    expect(events.map((event) => event.route.keys[0])).toEqual([
      'bench-new-0',
      'bench-new-0',
      'bench-new-0',
      'bench-new-1',
    ]);
    expect(events.every((event) => event.action === 'created')).toBe(true);
  });

  it('repeats one issue of one project with distinct bytes and a rising count', () => {
    // Act
    const bodies = [0, 1, 2].map((n) => issueBody(template, 'repeats', n));
    const events = bodies.map(eventOf);

    // Assess
    expect(new Set(bodies).size).toBe(3);
    expect(new Set(events.map((event) => event.fingerprint)).size).toBe(1);
    expect(events.map((event) => event.route.keys[0])).toEqual(Array(3).fill('bench-repeat'));
    expect(events.map((event) => event.counts.seen)).toEqual([1, 2, 3]);
  });

  it('names a route for every project the deliveries use, and the repeats one', () => {
    // Act
    const projects = projectsFor(2 * MAX_BATCH_GROUPS + 1);

    // Assess
    expect(projects).toEqual(['bench-new-0', 'bench-new-1', 'bench-new-2', 'bench-repeat']);
    expect(projects).toContain(newGroupProject(2 * MAX_BATCH_GROUPS));
  });
});

describe('bench/hooks: inFlight', () => {
  it('runs every task, never more than the width at once, results in order', async () => {
    // Prepare
    let running = 0;
    let most = 0;
    const task = async (i: number) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (i % 3) + 1));
      running -= 1;
      return i * 2;
    };

    // Act
    const results = await inFlight(10, 3, task);

    // Assess
    expect(results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(most).toBe(3);
  });

  it('starts no task after one fails, and throws its error once those in flight have ended', async () => {
    // Prepare
    const started: number[] = [];
    const ended: number[] = [];
    const task = async (i: number) => {
      started.push(i);
      await new Promise((resolve) => setTimeout(resolve, i === 1 ? 1 : 20));
      ended.push(i);
      if (i === 1) throw new Error('task 1 failed');
      return i;
    };

    // Act
    const run = inFlight(10, 2, task);

    // Assess
    await expect(run).rejects.toThrow('task 1 failed');
    expect(started).toEqual([0, 1]);
    expect(ended.sort()).toEqual([0, 1]);
  });
});

describe('bench/hooks: PortTimer', () => {
  it("counts each method call made through it, and those that threw, on the object's own state", async () => {
    // Prepare
    class Store {
      #saved = 0;
      async save(): Promise<number> {
        this.#saved += 1;
        if (this.#saved === 2) throw new VersionConflictError('lost the race');
        return this.#saved;
      }
    }
    const timer = new PortTimer();
    const store = timer.timed('incidents', new Store());

    // Act
    await store.save();
    await expect(store.save()).rejects.toThrow(VersionConflictError);
    const third = await store.save();

    // Assess
    expect(third).toBe(3);
    expect(timer.totals.get('incidents.save')).toMatchObject({ calls: 3, failed: 1 });
  });
});

describe('bench/hooks: summary', () => {
  const profile = {
    deliveries: 2,
    totalMs: [10, 14],
    calls: {
      'incidents.getGroup': { calls: 2, failed: 0, ms: 4 },
      'incidents.saveGroup': { calls: 4, failed: 2, ms: 12 },
    },
  };

  it('splits a delivery into its port calls, largest first, their total and the rest', () => {
    // Act
    const rows = whereRows(profile);

    // Assess
    expect(rows.map((row) => [row.part, row.callsPerDelivery, row.msPerDelivery])).toEqual([
      ['incidents.saveGroup', 2, 6],
      ['incidents.getGroup', 1, 2],
      ['port calls', 3, 8],
      ['the rest', 0, 4],
      ['delivery (mean)', 0, 12],
    ]);
    expect(rows[0]!.failedPerDelivery).toBe(1);
  });

  it('judges the targets on the HTTP path: p50 one at a time, deliveries per second in the burst', () => {
    // Prepare
    const burst = (wallMs: number) => ({
      deliveries: 100,
      inFlight: 8,
      wallMs,
      latencies: [1, 2, 3],
      mainThreadBusyMs: 50,
    });

    // Act
    const fast = workloadSummary({
      workload: 'repeats',
      sequential: { http: [4, 5, 6], inProcess: [3, 4, 5] },
      burst: { http: burst(200), inProcess: burst(100) },
      profile: { sequential: profile, burst: profile },
    });
    const slow = workloadSummary({
      workload: 'repeats',
      sequential: { http: [5, 6, 7], inProcess: [1, 2, 3] },
      burst: { http: burst(201), inProcess: burst(100) },
      profile: { sequential: profile, burst: profile },
    });

    // Assess
    expect(fast.met).toEqual({ p50: true, perSecond: true });
    expect(fast.http.burst.perSecond).toBe(500);
    expect(fast.http.burst.perMainThreadSecond).toBe(2000);
    expect(fast.added.p50).toBe(1);
    expect(slow.met).toEqual({ p50: false, perSecond: false });
  });
});
