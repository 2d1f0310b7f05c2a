import {
  ITERATION_ARTEFACTS,
  RUN_ARTEFACTS,
  type RunArtefact,
} from '../../../lambdas/core/shared/artefact-keys.js';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { investigationBlock } from '../investigation-render.js';
import { runLearningBlock } from '../learning/learning-report-render.js';
import { readLearningReport } from '../learning/learning-report-file.js';
import { readInvestigationReport } from '../investigation-report.js';
import { terminalSafe } from '../terminal-text.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { controlDetail, controlTable } from '../control-render.js';
import { evaluationReport } from '../evaluation-render.js';
import { iterationDetail, iterationsTable, runStatusText } from '../render.js';
import { renderResultsBlock } from '../results-block.js';
import { iterationReceipt, receiptsOf, runReceipts } from '../receipts-render.js';
import { resultsFromLog } from '../results-from-log.js';
import { StoredIterationLogSchema } from '../../../lambdas/core/schemas/analysis/log.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import type { RunBackend } from '../backend/run-backend.js';
import type { IterationRecord } from '../../../lambdas/core/schemas/iteration.js';
import { resolve } from 'node:path';
import { htmlReport } from '../dashboard/html-report.js';
import { writeAtomically } from '../file-writes.js';

export interface ShowOptions extends BackendOptions {
  iteration?: number;
  artefact?: string;
  /** Write the run's self-contained HTML report here instead. */
  html?: string;
}

/** `ralph show RUN [--iteration N [--artefact NAME]]`: the stored record, in detail. */
export async function showCommand(
  runId: string,
  options: ShowOptions,
  output: Output,
): Promise<number> {
  if (options.html !== undefined)
    return showHtmlReport(runId, { ...options, html: options.html }, output);
  return withBackend(options, async (backend) => {
    if (options.iteration === undefined) {
      if (options.artefact) return showRunArtefact(backend, runId, options.artefact, output);
      return showRunDetail(backend, runId, output);
    }
    if (options.artefact) {
      const name = options.artefact;
      if (!(ITERATION_ARTEFACTS as readonly string[]).includes(name))
        throw new CliError(
          `unknown artefact "${name}"; one of ${ITERATION_ARTEFACTS.join(', ')}`,
          EXIT.invalidInput,
        );
      const text = await backend.readArtefact(runId, options.iteration, name);
      if (output.json) output.data({ runId, iteration: options.iteration, artefact: name, text });
      else output.raw(text.endsWith('\n') ? text : `${text}\n`);
      return EXIT.ok;
    }
    return showIterationDetail(backend, runId, options.iteration, output);
  });
}

/** `--html FILE`: the run's charts, summary and receipts in one self-contained file. */
async function showHtmlReport(
  runId: string,
  options: ShowOptions & { html: string },
  output: Output,
): Promise<number> {
  if (options.iteration !== undefined || options.artefact !== undefined)
    throw new CliError(
      "--html writes the whole run's report: leave out --iteration and --artefact",
      EXIT.invalidInput,
    );
  return withBackend(options, async (backend) => {
    const file = resolve(options.html);
    const { html, data } = await htmlReport(backend, runId, new Date().toISOString());
    await writeAtomically(file, html);
    const drawn = data.charts.filter((chart) => chart.x.length > 0).length;
    output.line(`wrote ${file}: run ${runId}, ${drawn} of ${data.charts.length} charts with data`);
    output.data({
      runId,
      file,
      charts: data.charts.map((chart) => ({ id: chart.id, points: chart.x.length })),
    });
    return EXIT.ok;
  });
}

/** One of the run's own artefacts (summary.json, …), as stored. */
async function showRunArtefact(
  backend: RunBackend,
  runId: string,
  name: string,
  output: Output,
): Promise<number> {
  if (!(RUN_ARTEFACTS as readonly string[]).includes(name))
    throw new CliError(
      `unknown run artefact "${name}"; one of ${RUN_ARTEFACTS.join(', ')} (an iteration's, with --iteration N: ${ITERATION_ARTEFACTS.join(', ')})`,
      EXIT.invalidInput,
    );
  const text = await backend.readRunArtefact(runId, name as RunArtefact);
  if (output.json) output.data({ runId, artefact: name, text });
  else output.raw(text.endsWith('\n') ? text : `${text}\n`);
  return EXIT.ok;
}

async function showRunDetail(backend: RunBackend, runId: string, output: Output): Promise<number> {
  const { run, stories: tasks } = await backend.showRun(runId);
  const iterations = await backend.listIterations(runId);
  output.line(
    runStatusText(run, tasks, iterations, {
      interrupted: await backend.interruptedRuns([run]),
      flags: backend.flags,
    }),
  );
  output.line(iterations.length === 0 ? 'no iterations yet' : iterationsTable(iterations));
  const control = controlTable(iterations);
  if (control) output.line(control);
  const evaluation = evaluationReport(run, iterations, (key) => backend.describeArtefact(key));
  if (evaluation) output.line(evaluation);
  const receipts = runReceipts(run, iterations);
  if (receipts) output.line(receipts);
  const costs = { receipts: receiptsOf(iterations), totalUsd: run.costUsd };
  if (run.investigation === undefined) {
    const learning = await readLearningReport(backend, runId);
    if (learning) output.line(runLearningBlock(learning));
    output.data({ run, tasks, iterations, costs, learningReport: learning ?? null });
    return EXIT.ok;
  }
  const report = await readInvestigationReport(backend, runId);
  output.line(
    typeof report === 'string'
      ? `investigation  ${terminalSafe(report)}`
      : investigationBlock(report),
  );
  output.data({
    run,
    tasks,
    iterations,
    costs,
    investigationReport: typeof report === 'string' ? null : report,
  });
  return EXIT.ok;
}

async function showIterationDetail(
  backend: RunBackend,
  runId: string,
  number: number,
  output: Output,
): Promise<number> {
  const { run } = await backend.showRun(runId);
  const { iteration, evaluation } = await backend.showIteration(runId, number);
  output.line(iterationDetail(iteration, (key) => backend.describeArtefact(key)));
  const agentTail = await agentFailureTail(backend, runId, iteration);
  if (agentTail) output.line(`--- agent output (tail) ---\n${agentTail}`);
  const control = controlDetail(iteration);
  if (control) output.line(control);
  const receipt = iterationReceipt(iteration);
  if (receipt) output.line(receipt);
  const summary = iteration.evaluation;
  if (!summary) {
    if (run.config.evaluation.enabled)
      output.line('evaluation none stored (nothing to evaluate, or the analysis has not run yet)');
    output.data({ iteration });
    return EXIT.ok;
  }
  const log = readableLog(evaluation?.log, summary.logKey);
  output.line('');
  output.line(renderResultsBlock(resultsFromLog(log, summary, run.config.evaluation.convergence)));
  output.data({ iteration, evaluation: { summary, log } });
  return EXIT.ok;
}

/** Outcomes where what the agent printed says why the iteration failed. */
const AGENT_FAILURES: ReadonlySet<string> = new Set([
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
]);

/**
 * For an agent that failed, the tail of what it printed (its stderr first), from the
 * iteration's result.json; nothing when the runner could not write one.
 */
async function agentFailureTail(
  backend: RunBackend,
  runId: string,
  iteration: IterationRecord,
): Promise<string | undefined> {
  if (!iteration.outcome || !AGENT_FAILURES.has(iteration.outcome)) return undefined;
  try {
    const stored = JSON.parse(
      await backend.readArtefact(runId, iteration.iteration, 'result.json'),
    ) as { failureDetail?: unknown };
    return typeof stored.failureDetail === 'string' && stored.failureDetail.trim() !== ''
      ? stored.failureDetail.trimEnd()
      : undefined;
  } catch {
    return undefined;
  }
}

/** The iteration's stored evaluation log, validated. */
function readableLog(log: unknown, key: string) {
  if (log === null || log === undefined)
    throw new CliError(
      `the iteration's evaluation log ${key} cannot be read: it is missing`,
      EXIT.internal,
    );
  try {
    return parseOrThrow(StoredIterationLogSchema, log, key);
  } catch (error) {
    throw new CliError(
      `the iteration's evaluation log ${key} cannot be read: ${(error as Error).message}`,
      EXIT.internal,
    );
  }
}
