import { describe, expect, it } from 'vitest';
import { withinLimit } from '../../bench/api/bundles.js';
import type { LatencyFigures } from '../../bench/api/measure-latency.js';
import type { Options } from '../../bench/api/options.js';
import { jsonReport, textReport } from '../../bench/api/report.js';
import {
  bundleSummaries,
  kB,
  routeSummary,
  signedMs,
  summarise,
  type BundleFigures,
} from '../../bench/api/summary.js';

const options: Options = { samples: 20, warmup: 2, imports: 3, json: false };

const times = (http: number[], inProcess: number[]) => ({ http, inProcess });

function bundle(name: 'api-read' | 'api-start', bytes: number, importMs: number[]) {
  return {
    name,
    file: `/tmp/${name}/index.mjs`,
    bytes,
    gzipBytes: bytes / 4,
    mapBytes: bytes * 4,
    parts: [
      { owner: 'zod', bytes: 455_000 },
      { owner: '@smithy/core', bytes: 142_000 },
      { owner: 'lambdas/core', bytes: 38_000 },
      { owner: 'left/out', bytes: 1_000 },
    ],
    importMs,
    limit: { bytes: 1_000_000, of: 'index.mjs' as const },
  };
}

const bundleFigures = (startBytes: number): BundleFigures => ({
  bundles: [bundle('api-read', 900_000, [100, 110, 120]), bundle('api-start', startBytes, [150])],
  baselineImportMs: [5, 6, 7],
});

const latency: LatencyFigures = {
  noRoute: times([1.2, 1.3], [0.2, 0.3]),
  getRun: times([7, 8, 9], [5, 6, 7]),
  startRun: times([12, 13], [10, 11]),
  runId: 'r1',
  starts: 45,
};

const routes = () => [
  routeSummary('GET /runs/{id}', latency.getRun),
  routeSummary('POST /runs', latency.startRun),
  routeSummary('no route (404)', latency.noRoute, false),
];

describe('bench/api: bundle limits', () => {
  it("holds an API function's index.mjs and any function's zip to their limits", () => {
    // Prepare
    const zippedLimit = { bytes: 1_000_000, of: 'zipped' as const };
    const fileLimit = { bytes: 1_000_000, of: 'index.mjs' as const };

    // Act
    const verdicts = [
      withinLimit({ bytes: 1_700_000, gzipBytes: 450_000, limit: zippedLimit }),
      withinLimit({ bytes: 4_000_000, gzipBytes: 1_000_001, limit: zippedLimit }),
      withinLimit({ bytes: 1_000_001, gzipBytes: 300_000, limit: fileLimit }),
    ];

    // Assess
    expect(verdicts).toEqual([true, false, false]);
  });
});

describe('bench/api: summary', () => {
  it('takes the added cost as HTTP minus in-process, at p50 against the target and at p95', () => {
    // Act
    const within = routeSummary('GET /runs/{id}', times([12, 14, 16], [3, 4, 5]));
    const over = routeSummary('GET /runs/{id}', times([15, 16], [5, 5.5]));

    // Assess
    expect(within.added.p50).toBe(10);
    expect(within.added.p95).toBeCloseTo(15.8 - 4.9);
    expect(within.met).toBe(true);
    expect(over.added.p50).toBeCloseTo(10.25);
    expect(over.met).toBe(false);
  });

  it("gives each bundle its import time over the empty module's and checks 10^6 bytes", () => {
    // Act
    const [read, start] = bundleSummaries(bundleFigures(1_000_001));

    // Assess
    expect(read).toMatchObject({ name: 'api-read', importOverBaselineMs: 104, met: true });
    expect(read).not.toHaveProperty('file');
    expect(start).toMatchObject({ name: 'api-start', importOverBaselineMs: 144, met: false });
    expect(bundleSummaries(bundleFigures(1_000_000))[1]?.met).toBe(true);
  });

  it('leaves a reference route out of the latency verdict and names the bundles over target', () => {
    // Prepare
    const slowReference = [...routes().slice(0, 2), routeSummary('ref', times([50], [1]), false)];

    // Act
    const summary = summarise(slowReference, bundleFigures(1_100_000));

    // Assess
    expect(summary.met).toEqual({ latency: true, bundles: false });
    expect(summary.verdict).toBe(
      'Run API: HTTP + signing at p50 +2.0 ms on GET /runs/{id}, +2.0 ms on POST /runs ' +
        '(target ≤ 10 ms added: met); bundles 900.0–1100.0 kB, zipped 225.0–275.0 kB ' +
        '(targets ≤ 1000.0 kB: API index.mjs, every function zipped: ' +
        'NOT met by api-start)',
    );
  });

  it('formats kB and signed differences', () => {
    expect(kB(1_145_609)).toBe('1145.6');
    expect(signedMs(1.26)).toBe('+1.3');
    expect(signedMs(-0.44)).toBe('−0.4');
    expect(signedMs(0)).toBe('+0.0');
  });
});

describe('bench/api: reports', () => {
  it('prints both paths of every route, the no-op starter, each bundle and the verdict', () => {
    // Prepare
    const summary = summarise(routes(), bundleFigures(950_000));

    // Act
    const text = textReport(summary, latency, options);

    // Assess
    for (const label of [
      'GET /runs/{id} via HTTP',
      'GET /runs/{id} in-process (BASELINE)',
      'POST /runs via HTTP',
      'POST /runs in-process (BASELINE)',
      'ref. no route (404) via HTTP',
      'BASELINE empty module',
    ])
      expect(text).toContain(label);
    expect(text).toContain('counting no-op starter stands in for Step Functions (45 starts');
    expect(text).toContain('zod 455, @smithy/core 142, lambdas/core 38');
    expect(text).not.toContain('left/out');
    expect(text.trimEnd().split('\n').at(-1)).toBe(summary.verdict);
  });

  it('writes one JSON document with the targets, every route and bundle, rounded', () => {
    // Prepare
    const summary = summarise(routes(), bundleFigures(950_000));

    // Act
    const json = JSON.parse(jsonReport(summary, latency, options, 1234.5)) as {
      target: { met: { latency: boolean; bundles: boolean } };
      routes: { route: string; reference: boolean; met?: boolean; addedMs: { p50: number } }[];
      bundles: { name: string; importMs: { median: number }; parts: unknown[] }[];
      elapsedMs: number;
    };

    // Assess
    expect(json.target.met).toEqual({ latency: true, bundles: true });
    expect(json.routes.map((r) => [r.route, r.reference, r.met])).toEqual([
      ['GET /runs/{id}', false, true],
      ['POST /runs', false, true],
      ['no route (404)', true, undefined],
    ]);
    expect(json.routes[2]?.addedMs.p50).toBe(1);
    expect(json.bundles.map((b) => [b.name, b.importMs.median, b.parts.length])).toEqual([
      ['api-read', 110, 4],
      ['api-start', 150, 4],
    ]);
    expect(json.elapsedMs).toBe(1235);
  });
});
