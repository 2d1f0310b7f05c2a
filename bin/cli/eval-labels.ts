/** `ralph eval --labels FILE`: reading the labels first, and measuring the cheap mode on them. */
import {
  measureLabelAgreement,
  type LabelAgreement,
} from '../../lambdas/core/calibration/label-agreement.js';
import {
  parseLabels,
  requireCriteria,
  type LabelFile,
} from '../../lambdas/core/calibration/labels.js';
import type { Artefact } from '../../lambdas/core/schemas/evaluation.js';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { CliError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { readText } from './eval-input.js';
import { renderLabelAgreement } from './label-agreement-render.js';
import type { Output } from './output.js';

/**
 * The label file of `--labels`, read and checked before anything is scored; refused with
 * exit code 2 in the expensive mode (the labels measure the cheap one).
 */
export async function readLabelOption(
  file: string | undefined,
  mode: EvaluationOutcome['mode'],
): Promise<LabelFile | undefined> {
  if (file === undefined) return undefined;
  if (mode === 'expensive')
    throw new CliError(
      '--labels measures the cheap mode: use --mode cheap or --mode dual',
      EXIT.invalidInput,
    );
  return requireCriteria(parseLabels(await readText(file), file));
}

/**
 * Prints the agreement with the labels (nothing without labels) and returns it for --json.
 *
 * @example
 * const labels = reportLabels(labelFile, artefacts, outcome, output);
 * output.data(labels ? { ...outcome, labels } : outcome);
 */
export function reportLabels(
  labels: LabelFile | undefined,
  artefacts: readonly Artefact[],
  outcome: EvaluationOutcome,
  output: Output,
): LabelAgreement | undefined {
  if (labels === undefined || outcome.cheap === undefined) return undefined;
  const agreement = measureLabelAgreement(artefacts, outcome.cheap, labels);
  output.line('');
  for (const line of renderLabelAgreement(agreement)) output.line(line);
  return agreement;
}
