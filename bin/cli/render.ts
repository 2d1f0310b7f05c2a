import { tableStyle } from './table-style.js';
import Table from 'cli-table3';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { TaskRecord } from '../../lambdas/core/schemas/task.js';
import { findingLine } from '../../lambdas/core/control/quality/review-section.js';
import { evaluationSegment } from './evaluation-render.js';
import { runCostText } from './receipts-render.js';

const OUTCOME_MARK: Record<string, string> = { passed: '✓' };

export function outcomeMark(outcome: string | undefined): string {
  if (!outcome) return '…';
  return OUTCOME_MARK[outcome] ?? '✗';
}

export function seconds(ms: number | undefined): string {
  return ms === undefined ? '—' : `${(ms / 1000).toFixed(1)}s`;
}

function gatesLine(gates: readonly GateResult[]): string {
  if (gates.length === 0) return 'no gates run';
  return gates
    .map((gate) => `${gate.name} ${gate.passed ? '✓' : gate.timedOut ? '⏱' : '✗'}`)
    .join(' ');
}

function iterationMs(iteration: IterationRecord): number | undefined {
  if (!iteration.startedAt || !iteration.endedAt) return undefined;
  return Date.parse(iteration.endedAt) - Date.parse(iteration.startedAt);
}

/**
 * The live line printed as each iteration is done: task, gates, commit, duration and, when
 * the iteration was evaluated, both modes' figures.
 */
export function iterationLine(iteration: IterationRecord): string {
  const commit = iteration.commit ? `commit ${iteration.commit.slice(0, 8)}` : 'no commit';
  const cause =
    iteration.outcome === 'passed' || !iteration.cause ? '' : `  — ${firstLine(iteration.cause)}`;
  const duration = seconds(iterationMs(iteration));
  return (
    [
      `#${iteration.iteration}`.padEnd(4),
      iteration.taskId.padEnd(10),
      `${outcomeMark(iteration.outcome)} ${iteration.outcome ?? iteration.status}`.padEnd(18),
      `gates: ${gatesLine(iteration.gates)}`.padEnd(32),
      commit.padEnd(16),
      iteration.evaluation
        ? `${duration.padEnd(7)} ${evaluationSegment(iteration.evaluation)}`
        : duration,
    ].join(' ') + cause
  );
}

/**
 * The runs stored as running that no process runs (the one that ran it is gone: killed, or
 * its machine restarted), shown as interrupted (RunBackend.interruptedRuns).
 */
export interface Liveness {
  readonly interrupted: ReadonlySet<string>;
}

/** Where a run is stored, for the commands its status text suggests (a RunBackend is one). */
export interface RunPlace extends Liveness {
  /** What a suggested command needs to reach the store again (RunBackend.flags). */
  readonly flags: string;
}

/** The status a person should read: `interrupted` for a running run nothing runs. */
export function shownStatus(run: RunRecord, liveness: Liveness): string {
  return run.status === 'running' && liveness.interrupted.has(run.runId)
    ? 'interrupted'
    : run.status;
}

export function runsTable(runs: readonly RunRecord[], liveness: Liveness): string {
  const table = new Table({
    head: ['run', 'project', 'status', 'stories', 'iterations', 'created'],
    style: tableStyle(),
  });
  for (const run of runs)
    table.push([
      run.runId,
      run.project,
      shownStatus(run, liveness),
      `${run.storiesPassed}/${run.storiesTotal}`,
      String(run.iterationsCompleted),
      run.createdAt.replace('T', ' ').slice(0, 19),
    ]);
  return table.toString();
}

/**
 * The tasks, one row each (a task in review with its number of findings), then the review
 * findings of every task that has some: what a review iteration works on, or what a task
 * completed with once its review iterations were used up.
 */
/**
 * The stories, with the one an iteration is working on now (planned or running) shown as
 * such: its task record only changes when that iteration is recorded.
 */
export function tasksTable(tasks: readonly TaskRecord[], open?: IterationRecord): string {
  const table = new Table({
    head: ['story', 'title', 'priority', 'status', 'attempts', 'last outcome'],
    style: tableStyle(),
  });
  for (const task of tasks)
    table.push([
      task.taskId,
      task.title,
      String(task.priority),
      open && open.taskId === task.taskId && task.status !== 'complete'
        ? `${open.status} (iteration ${open.iteration})`
        : taskStatus(task),
      String(task.attempts),
      task.lastOutcome ?? '—',
    ]);
  const lines: string[] = [];
  for (const { taskId, status, review } of tasks) {
    if (!review || review.findings.length === 0) continue;
    const state = status === 'in_review' ? 'in review' : status;
    lines.push(`  ${taskId} (${state}; findings of iteration ${review.iteration})`);
    for (const finding of review.findings) lines.push(`    ${findingLine(finding)}`);
  }
  if (lines.length === 0) return table.toString();
  return [table.toString(), 'review findings', ...lines].join('\n');
}

function taskStatus(task: TaskRecord): string {
  const findings = task.review?.findings.length ?? 0;
  const counted = `${findings} finding${findings === 1 ? '' : 's'}`;
  if (task.status === 'in_review') return `in review (${counted})`;
  if (task.status !== 'complete') return task.status;
  return findings > 0 ? `✓ passes (${counted})` : '✓ passes';
}

export function iterationsTable(iterations: readonly IterationRecord[]): string {
  const table = new Table({
    head: ['#', 'story', 'attempt', 'outcome', 'gates', 'commit', 'agent', 'gates time', 'total'],
    style: tableStyle(),
  });
  for (const iteration of iterations)
    table.push([
      String(iteration.iteration),
      iteration.taskId,
      String(iteration.attempt),
      `${outcomeMark(iteration.outcome)} ${iteration.outcome ?? iteration.status}`,
      gatesLine(iteration.gates),
      iteration.commit?.slice(0, 8) ?? '—',
      seconds(iteration.durations?.agentMs),
      seconds(iteration.durations?.gatesMs),
      seconds(iterationMs(iteration)),
    ]);
  return table.toString();
}

export function runStatusText(
  run: RunRecord,
  tasks: readonly TaskRecord[],
  iterations: readonly IterationRecord[] = [],
  place: RunPlace = { interrupted: new Set(), flags: '' },
): string {
  const status = shownStatus(run, place);
  const lines = [
    `run        ${run.runId}`,
    `project    ${run.project} (branch ${run.branchName})`,
    `status     ${status}${run.cancelRequested ? ' (cancel requested)' : ''}${
      status === 'interrupted'
        ? ` (no ralph process is running it: \`ralph resume ${run.runId}${place.flags}\` continues it)`
        : ''
    }`,
    `stories    ${run.storiesPassed} of ${run.storiesTotal} pass`,
    `iterations ${run.iterationsCompleted} recorded of ${run.config.limits.maxIterations} allowed (segment ${run.segment})`,
    `repository ${run.repo.kind === 'local' ? run.repo.path : run.repo.url}`,
    `agent      ${run.config.agent.command ?? '(default)'}`,
  ];
  if (run.evaluation)
    lines.push(
      `evaluation ${
        run.evaluation.converged
          ? `converged at iteration ${run.evaluation.convergedIteration ?? '?'}`
          : `not converged (analysed through iteration ${run.evaluation.lastAnalysedIteration})`
      }`,
    );
  // What its receipts sum to, once anything cost something or a budget is set.
  const { maxCostUsd, maxCostUsdPerProjectDay } = run.config.limits;
  if (run.costUsd > 0 || maxCostUsd !== undefined || maxCostUsdPerProjectDay !== undefined)
    lines.push(`cost       ${runCostText(run)}`);
  if (run.stopReason) lines.push(`reason     ${run.stopReason}`);
  if (run.lastFailure)
    lines.push(
      `last fail  iteration ${run.lastFailure.iteration} (${run.lastFailure.taskId ?? '—'}): ${firstLine(run.lastFailure.summary)}`,
    );
  const open =
    status === 'running'
      ? iterations.find((iteration) => iteration.status !== 'recorded')
      : undefined;
  return `${lines.join('\n')}\n${tasksTable(tasks, open)}`;
}

export function iterationDetail(
  iteration: IterationRecord,
  describeArtefact: (key: string) => string,
): string {
  const lines = [
    `iteration  ${iteration.iteration} (segment ${iteration.segment})`,
    `story      ${iteration.taskId} — ${iteration.taskTitle} (attempt ${iteration.attempt})`,
    `outcome    ${outcomeMark(iteration.outcome)} ${iteration.outcome ?? iteration.status}`,
  ];
  if (iteration.cause) lines.push(`cause      ${iteration.cause}`);
  if (iteration.commit) lines.push(`commit     ${iteration.commit}`);
  if (iteration.evidenceRef) lines.push(`evidence   ${iteration.evidenceRef} (the reset change)`);
  if (iteration.agentExitCode !== undefined)
    lines.push(`agent exit ${iteration.agentExitCode ?? 'killed'}`);
  if (iteration.agentClaimedComplete)
    lines.push('claim      the agent said <promise>COMPLETE</promise> (a claim, not a verdict)');
  if (iteration.durations)
    lines.push(
      `time       agent ${seconds(iteration.durations.agentMs)}, gates ${seconds(iteration.durations.gatesMs)}, runner ${seconds(iteration.durations.runnerMs)}`,
    );
  if (iteration.filesChanged.length > 0)
    lines.push(`files      ${iteration.filesChanged.join(', ')}`);
  if (iteration.gates.length > 0) {
    const table = new Table({
      head: ['gate', 'blocking', 'result', 'exit', 'time'],
      style: tableStyle(),
    });
    for (const gate of iteration.gates)
      table.push([
        gate.name,
        gate.blocking ? 'yes' : 'advisory',
        gate.passed ? '✓ passed' : gate.timedOut ? '⏱ timed out' : '✗ failed',
        String(gate.exitCode ?? '—'),
        seconds(gate.durationMs),
      ]);
    lines.push(table.toString());
    for (const gate of iteration.gates.filter((candidate) => !candidate.passed))
      lines.push(`--- ${gate.name} output (tail) ---`, gate.outputTail.trimEnd());
  }
  const artefacts = Object.entries(iteration.artefacts);
  if (artefacts.length > 0) {
    lines.push('artefacts');
    for (const [kind, key] of artefacts)
      lines.push(`  ${kind.padEnd(11)} ${describeArtefact(key)}`);
  }
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
