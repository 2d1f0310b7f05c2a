/**
 * What a person sees of learning through the CLI: `ralph show RUN` prints the run's learning
 * report (what it learned, and with/without injection), and `ralph learning PROJECT` pools
 * the project's runs. The agent is the repeating stand-in of the learning e2e test.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EffectReport } from '../../lambdas/core/schemas/learning.js';
import { METRIC_NAMES } from '../../lambdas/core/schemas/metric-catalogue.js';
import { jsonOf, useCliScratch } from '../support/cli.js';

const AGENTS = join(import.meta.dirname, '..', 'fixtures', 'agents');
const scratch = useCliScratch('ralph-learning-');

const prd = {
  project: 'Shop',
  branchName: 'ralph/modules',
  description: 'Small modules',
  userStories: ['Cart', 'Orders', 'Invoices'].map((name, index) => ({
    id: `US-00${index + 1}`,
    title: `${name} module`,
    description: `As a shopper I want a ${name.toLowerCase()} module in src.`,
    acceptanceCriteria: ['The lint gate passes'],
    priority: index + 1,
    passes: false,
    notes: '',
  })),
};

const config = {
  agent: { command: `node ${join(AGENTS, 'repeating-agent.mjs')}` },
  gates: [{ name: 'lint', command: `node ${join(AGENTS, 'check-strict.mjs')}` }],
  control: { quality: { maxReviewIterations: 0 } },
  learning: { control: { share: 0, tasks: ['US-003'] } },
};

let runId = '';

beforeAll(async () => {
  const repo = await scratch.repo({
    'prd.json': `${JSON.stringify(prd, null, 2)}\n`,
    'ralph.config.json': `${JSON.stringify(config, null, 2)}\n`,
    'src/index.js': "'use strict';\nmodule.exports = {};\n",
  });
  const run = await scratch.ralph('run', '--repo', repo, '--json');
  expect(run.exitCode, run.stderr).toBe(0);
  runId = jsonOf<{ run: { runId: string } }>(run).run.runId;
});

describe('learning in the CLI', () => {
  it("keeps the steps' metrics as EMF in the data dir, every name from the catalogue", async () => {
    const lines = (await readFile(join(scratch.dataDir, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    const documents = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const names = documents.flatMap((document) =>
      (
        document._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }
      ).CloudWatchMetrics.flatMap((directive) => directive.Metrics.map((metric) => metric.Name)),
    );
    expect(names.every((name) => (METRIC_NAMES as string[]).includes(name))).toBe(true);
    expect(documents.filter((document) => document.IterationsRecorded === 1)).toHaveLength(5);
    expect(documents.filter((document) => document.ControlIterations === 1)).toHaveLength(2);
    expect(documents.find((document) => document.RunsEnded === 1)).toMatchObject({
      project: 'shop',
      runId,
      status: 'completed',
      RunIterations: 5,
      StoriesPassed: 3,
    });
  });

  it('ralph show RUN prints what the run learned and the comparison, without colour off a terminal', async () => {
    const shown = await scratch.ralph('show', runId);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/learning {2}2 hint\(s\); rules created: r-lint-[0-9a-f]{8}/);
    expect(shown.stdout).toMatch(/with injection\s*│\s*1\s*│\s*100%\s*│\s*1\.00/);
    expect(shown.stdout).toMatch(/control \(nothing given\)\s*│\s*1\s*│\s*100%\s*│\s*2\.00/);
    expect(shown.stdout).toContain('too few tasks to conclude: 1 with injection, 1 control');
    expect(shown.stdout).not.toContain('\u001b[');
  });

  it('ralph learning PROJECT pools the runs, and --json gives the report', async () => {
    const pooled = await scratch.ralph('learning', 'shop');
    expect(pooled.exitCode, pooled.stderr).toBe(0);
    expect(pooled.stdout).toContain('project shop: 1 run(s) with a learning report');
    const report = jsonOf<EffectReport & { runs: number }>(
      await scratch.ralph('learning', 'shop', '--json'),
    );
    expect(report).toMatchObject({ runs: 1, conclusive: false });
    expect(report.groups.control).toMatchObject({ tasks: 1, meanIterationsToPass: 2 });
    const unknown = await scratch.ralph('learning', 'nobody');
    expect(unknown.stdout).toContain('project nobody: no run has ended with a learning report yet');
  });
});
