/**
 * The measured effect of what was injected: each task of a run is on one side (something
 * injected, the control share, or nothing to inject), and the sides are compared on pass
 * rate and iterations to pass, with their sample sizes. Below `MIN_TASKS_PER_SIDE` on
 * either side the report says it is too small to conclude, rather than print a difference
 * that one task would reverse.
 */
import type { IterationRecord } from '../schemas/iteration.js';
import type { EffectFigures, EffectGroup, EffectReport, TaskEffect } from '../schemas/learning.js';

/** Tasks each side needs before a difference is reported as one. */
export const MIN_TASKS_PER_SIDE = 5;

/**
 * Each worked task of a run: its side, whether it passed, and the iterations it took.
 *
 * @example
 * taskEffects('r-1', iterations); // [{ taskId: 'US-001', group: 'nothing', passed: true, iterations: 2 }, ...]
 */
export function taskEffects(runId: string, iterations: readonly IterationRecord[]): TaskEffect[] {
  const byTask = new Map<string, IterationRecord[]>();
  for (const record of iterations) {
    if (record.status !== 'recorded') continue;
    byTask.set(record.taskId, [...(byTask.get(record.taskId) ?? []), record]);
  }
  return [...byTask].map(([taskId, records]) => {
    const passedAt = records.findIndex((record) => record.outcome === 'passed');
    const worked = passedAt === -1 ? records : records.slice(0, passedAt + 1);
    return {
      runId,
      taskId,
      group: groupOf(worked),
      passed: passedAt !== -1,
      iterations: worked.length,
    };
  });
}

function groupOf(records: readonly IterationRecord[]): EffectGroup {
  if (records.some((record) => record.learning?.control === true)) return 'control';
  return records.some((record) => (record.learning?.injected.length ?? 0) > 0)
    ? 'injected'
    : 'nothing';
}

/**
 * @example
 * effectReport('run r-1', taskEffects('r-1', iterations)).conclusion;
 * // 'too few tasks to conclude: 2 with injection, 1 control (at least 5 each)'
 */
export function effectReport(scope: string, tasks: readonly TaskEffect[]): EffectReport {
  const side = (group: EffectGroup) => figures(tasks.filter((task) => task.group === group));
  const groups = { injected: side('injected'), control: side('control'), nothing: side('nothing') };
  const conclusive =
    groups.injected.tasks >= MIN_TASKS_PER_SIDE && groups.control.tasks >= MIN_TASKS_PER_SIDE;
  return {
    scope,
    groups,
    conclusive,
    conclusion: conclusion(groups, conclusive),
    tasks: [...tasks],
  };
}

function figures(tasks: readonly TaskEffect[]): EffectFigures {
  const passed = tasks.filter((task) => task.passed);
  return {
    tasks: tasks.length,
    passed: passed.length,
    ...(tasks.length === 0 ? {} : { passRate: passed.length / tasks.length }),
    ...(passed.length === 0
      ? {}
      : {
          meanIterationsToPass:
            passed.reduce((sum, task) => sum + task.iterations, 0) / passed.length,
        }),
  };
}

function conclusion(groups: EffectReport['groups'], conclusive: boolean): string {
  const { injected, control } = groups;
  const sizes = `${injected.tasks} with injection, ${control.tasks} control`;
  if (!conclusive)
    return `too few tasks to conclude: ${sizes} (at least ${MIN_TASKS_PER_SIDE} each)`;
  const rate = (value: number | undefined) =>
    value === undefined ? 'n/a' : `${Math.round(value * 100)}%`;
  const mean = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(2));
  return (
    `with injection: pass rate ${rate(injected.passRate)}, ${mean(injected.meanIterationsToPass)} iterations to pass; ` +
    `control: ${rate(control.passRate)}, ${mean(control.meanIterationsToPass)} (${sizes})`
  );
}
