import { describe, expect, it } from 'vitest';
import { jsonReport } from '../../bench/orchestration/json-output.js';
import type { Figures } from '../../bench/orchestration/measure-all.js';
import type { Options } from '../../bench/orchestration/options.js';
import type { IterationSample } from '../../bench/orchestration/samples.js';
import { summarise } from '../../bench/orchestration/summary.js';
import { textReport } from '../../bench/orchestration/table-output.js';

const options: Options = { runs: 1, iterations: 20, warmup: 2, json: false, trace: false };

function sample(iteration: number, overheadMs: number): IterationSample {
  return {
    run: 1,
    iteration,
    wallMs: overheadMs + 10,
    agentMs: 10,
    gatesMs: 0,
    overheadMs,
    handlersMs: overheadMs / 2,
    runnerMs: overheadMs / 2 - 1,
    engineMs: 1,
    betweenMs: iteration < 3 ? 0.5 : undefined,
    runnerReportedMs: 20,
    steps: { RunAgent: overheadMs / 2 + 9, Advance: overheadMs / 2 },
  };
}

function figures(overheadMs: number): Figures {
  const samples = [1, 2, 3].map((n) => sample(n, overheadMs));
  return {
    measurements: [{ samples, coldSamples: [sample(1, 300)], mainThreadBusyMs: 42, steps: [] }],
    getRunTimes: [3],
    gitCalls: { viaServer: [2], spawnedHere: [8] },
    rssMb: 250.4,
    baseline: [{ wallMs: 0.1, engineMs: 0.1, betweenMs: 0.1 }],
    getItemTimes: [1.2],
  };
}

describe('bench/orchestration: the printed report', () => {
  it('prints one summary row per quantity, the legend and the verdict against the target', () => {
    const text = textReport(summarise(figures(60), options), options);
    const labels = [
      'orchestration overhead',
      '  cold stack: the warm-up run',
      '  handlers: Advance',
      '  runner: RunAgent − agent − gates',
      '  engine: transitions, the rest',
      'step RunAgent',
      'step Advance',
      'agent (excluded)',
      'iteration wall time',
      'to the next iteration (not in wall)',
      'BASELINE engine, no-op tasks',
      'BASELINE to the next iteration',
      'BASELINE DynamoDB GetItem',
      'ref. RunStore.getRun (+ zod)',
      'ref. 1 git call, spawn server',
      'ref. 1 git call, forked here',
    ];
    const positions = labels.map((label) => text.indexOf(`│ ${label} `));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain('3 iterations (1 run × 20, each after a 2-iteration warm-up run');
    expect(text).toContain('RSS 250 MB');
    expect(text).toContain('main thread busy: 42 ms per iteration');
    expect(text).toContain('overhead = Advance end − RunAgent start − agentMs − gatesMs');
    expect(text).toContain('≤ 100: met');
    expect(text).not.toContain('Every call of iteration');
    expect(
      text.endsWith(
        'orchestration overhead per iteration: median 60 ms, p95 60 ms (target ≤ 100 ms: met)\n',
      ),
    ).toBe(true);
  });

  it('says NOT met when the median or p95 exceeds the target, and prints the trace on request', () => {
    const traced = { ...options, trace: true };
    const text = textReport(summarise(figures(120), traced), traced);
    expect(text).toContain('(target ≤ 100 ms: NOT met)');
    expect(text).toContain('Every call of iteration 2 (run 1), in order:');
  });
});

describe('bench/orchestration: --json', () => {
  it('writes one document: verdict, target, config, summary statistics, profile, trace, iterations', () => {
    const summary = summarise(figures(60), { ...options, json: true });
    const document = JSON.parse(jsonReport(summary, { ...options, json: true }, 1234.4));
    expect(Object.keys(document)).toEqual([
      'verdict',
      'target',
      'config',
      'mainThreadBusyMsPerIteration',
      'summaryMs',
      'profile',
      'trace',
      'iterations',
      'elapsedMs',
    ]);
    expect(document.target).toEqual({
      ms: 100,
      met: true,
      rule: 'median and p95 of the overhead ≤ target',
    });
    expect(document.config).toMatchObject({ runs: 1, iterationsPerRun: 20, iterationsPooled: 3 });
    expect(Object.keys(document.summaryMs)).toEqual([
      'overhead',
      'cold',
      'handlers',
      'runner',
      'engine',
      'step.RunAgent',
      'step.Advance',
      'agent',
      'wall',
      'between',
      'baselineEngine',
      'baselineBetween',
      'getItem',
      'getRun',
      'gitViaServer',
      'gitSpawnedHere',
    ]);
    expect(document.iterations[0]).toMatchObject({ iteration: 1, overheadMs: 60, byKindMs: {} });
    expect(document.elapsedMs).toBe(1234);
  });
});
