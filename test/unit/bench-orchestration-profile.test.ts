import { afterEach, describe, expect, it } from 'vitest';
import type { TimedStep } from '../../bench/orchestration/loop-steps.js';
import type { Measured } from '../../bench/orchestration/measured-run.js';
import { gitSubcommand, portCalls, spawns } from '../../bench/orchestration/probes.js';
import { clip, kindsOf, profileOf, traceOf, unionMs } from '../../bench/orchestration/profile.js';
import type { IterationSample } from '../../bench/orchestration/samples.js';

const steps: TimedStep[] = [
  { state: 'RunAgent', iteration: 1, start: 0, end: 100 },
  { state: 'Advance', iteration: 1, start: 101, end: 141 },
];
const measured: Measured = {
  samples: [{ run: 1, iteration: 1 } as IterationSample],
  coldSamples: [],
  mainThreadBusyMs: 0,
  steps,
};

afterEach(() => {
  portCalls.length = 0;
  spawns.length = 0;
});

describe('bench/orchestration: intervals', () => {
  it('counts the time at least one interval was open', () => {
    expect(unionMs([])).toBe(0);
    const open = [
      { start: 0, end: 10 },
      { start: 5, end: 15 },
      { start: 20, end: 25 },
    ];
    expect(unionMs(open)).toBe(20);
    expect(clip({ start: -5, end: 50 }, { start: 0, end: 10 })).toEqual({ start: 0, end: 10 });
  });

  it('names a git call by its subcommand, past -c and -C options', () => {
    expect(gitSubcommand(['-c', 'user.name=x', '-C', '/repo', 'commit', '-m', 'x'])).toBe('commit');
    expect(gitSubcommand(['--no-pager'])).toBe('?');
  });
});

describe('bench/orchestration: where the time goes', () => {
  it('sums top-level calls per step and kind; other is the time with no call in flight', () => {
    portCalls.push(
      { label: 'runs.getRun', nested: false, start: 0, end: 10 },
      { label: 'artefacts.put', nested: false, start: 20, end: 40 },
      { label: 'artefacts.getText', nested: true, start: 30, end: 35 },
      { label: 'runs.saveRun', nested: false, start: 111, end: 131 },
    );
    spawns.push({ label: 'git commit', start: 50, end: 60 }, { label: 'sh', start: 60, end: 90 });
    const rows = profileOf([measured]).map((row) => [
      row.step,
      row.kind,
      row.call,
      row.perIteration,
      row.msPerIteration,
    ]);
    expect(rows).toEqual([
      ['RunAgent', 'DynamoDB', '', 1, 10],
      ['RunAgent', 'DynamoDB', 'runs.getRun', 1, 10],
      ['RunAgent', 'S3', '', 2, 20],
      ['RunAgent', 'S3', 'artefacts.put', 1, 20],
      ['RunAgent', 'S3', 'artefacts.getText', 1, 0],
      ['RunAgent', 'git', '', 1, 10],
      ['RunAgent', 'git', 'git commit', 1, 10],
      ['RunAgent', 'agent', '', 1, 30],
      ['RunAgent', 'agent', 'sh', 1, 30],
      ['RunAgent', 'other', '', 0, 30],
      ['Advance', 'DynamoDB', '', 1, 20],
      ['Advance', 'DynamoDB', 'runs.saveRun', 1, 20],
      ['Advance', 'other', '', 0, 20],
    ]);
    expect(kindsOf(measured, 1)).toEqual({ DynamoDB: 30, S3: 20, git: 10, agent: 30 });
    expect(traceOf(measured, 1).map((entry) => [entry.step, entry.atMs, entry.call])).toEqual([
      ['RunAgent', 0, 'runs.getRun'],
      ['RunAgent', 20, 'artefacts.put'],
      ['RunAgent', 30, '  artefacts.getText (inside the call above)'],
      ['RunAgent', 50, 'git commit'],
      ['RunAgent', 60, 'sh'],
      ['Advance', 10, 'runs.saveRun'],
    ]);
  });
});
