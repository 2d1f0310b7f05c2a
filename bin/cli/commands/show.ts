import {
  artefactKeys,
  ITERATION_ARTEFACTS,
  type IterationArtefact,
} from '../../../lambdas/core/shared/artefact-keys.js';
import { loadIteration, loadRun } from '../../../lambdas/core/steps/load.js';
import { parseJsonText, parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import type { ArtefactStore } from '../../../lambdas/ports.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { controlDetail, controlTable } from '../control-render.js';
import { evaluationReport } from '../evaluation-render.js';
import { iterationDetail, iterationsTable, runStatusText } from '../render.js';
import { renderResultsBlock } from '../results-block.js';
import { resultsFromLog } from '../results-from-log.js';
import { StoredIterationLogSchema } from '../../../lambdas/core/schemas/analysis/log.js';
import { withSession, type GlobalOptions } from '../session.js';

export interface ShowOptions extends GlobalOptions {
  iteration?: number;
  artefact?: string;
}

/** `ralph show RUN [--iteration N [--artefact NAME]]`: the stored record, in detail. */
export async function showCommand(
  runId: string,
  options: ShowOptions,
  output: Output,
): Promise<number> {
  return withSession(options, async ({ stack }) => {
    const { runs, artefacts } = stack.deps;
    const run = await loadRun(runs, runId);
    if (options.iteration === undefined) {
      if (options.artefact) throw new CliError('--artefact needs --iteration N', EXIT.invalidInput);
      const [tasks, iterations] = await Promise.all([
        runs.listTasks(runId),
        runs.listIterations(runId),
      ]);
      output.line(runStatusText(run, tasks));
      output.line(iterations.length === 0 ? 'no iterations yet' : iterationsTable(iterations));
      const control = controlTable(iterations);
      if (control) output.line(control);
      const evaluation = evaluationReport(run, iterations, (key) => stack.describeArtefact(key));
      if (evaluation) output.line(evaluation);
      output.data({ run, tasks, iterations });
      return EXIT.ok;
    }
    const iteration = await loadIteration(runs, runId, options.iteration);
    if (options.artefact) {
      const name = options.artefact as IterationArtefact;
      if (!ITERATION_ARTEFACTS.includes(name))
        throw new CliError(
          `unknown artefact "${options.artefact}"; one of ${ITERATION_ARTEFACTS.join(', ')}`,
          EXIT.invalidInput,
        );
      const text = await artefacts.getText(artefactKeys.iteration(runId, options.iteration, name));
      if (output.json) output.data({ runId, iteration: options.iteration, artefact: name, text });
      else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      return EXIT.ok;
    }
    output.line(iterationDetail(iteration, (key) => stack.describeArtefact(key)));
    const control = controlDetail(iteration);
    if (control) output.line(control);
    const summary = iteration.evaluation;
    if (!summary) {
      if (run.config.evaluation.enabled)
        output.line(
          'evaluation none stored (nothing to evaluate, or the analysis has not run yet)',
        );
      output.data({ iteration });
      return EXIT.ok;
    }
    const log = await readIterationLog(artefacts, summary.logKey);
    output.line('');
    output.line(
      renderResultsBlock(
        resultsFromLog(
          parseOrThrow(StoredIterationLogSchema, log, summary.logKey),
          summary,
          run.config.evaluation.convergence,
        ),
      ),
    );
    output.data({ iteration, evaluation: { summary, log } });
    return EXIT.ok;
  });
}

/** The iteration's stored log as written (validated by the caller). */
async function readIterationLog(artefacts: ArtefactStore, key: string): Promise<unknown> {
  try {
    return parseJsonText(await artefacts.getText(key), key);
  } catch (error) {
    throw new CliError(
      `the iteration's evaluation log ${key} cannot be read: ${(error as Error).message}`,
      EXIT.internal,
    );
  }
}
