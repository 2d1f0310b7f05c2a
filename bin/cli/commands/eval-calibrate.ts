import { resolve } from 'node:path';
import {
  agreementWith,
  fitSettings,
  type FitResult,
  type LabelledBacklog,
} from '../../../lambdas/core/calibration/fit-settings.js';
import {
  labelledStories,
  sharedStories,
} from '../../../lambdas/core/calibration/labelled-stories.js';
import { parseLabels, requireCriteria } from '../../../lambdas/core/calibration/labels.js';
import { PatternSetSchema, type PatternSet } from '../../../lambdas/core/schemas/evaluation.js';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { renderCalibration, type CalibrationReport } from '../calibration-render.js';
import { CliError } from '../errors.js';
import { readText } from '../eval-input.js';
import { EXIT } from '../exit-codes.js';
import { exists, writeAtomically } from '../file-writes.js';
import { progressLine } from '../live/progress-line.js';
import type { Output } from '../output.js';
import { readJson } from '../run-input.js';
import { emptyPatternSet } from './eval.js';

export interface CalibrateOptions {
  /** The labelled stories the settings are fitted on. */
  train: string;
  /** The labelled stories they are measured on; never one of train's. */
  test: string;
  /** The pattern set whose `qus` settings are the start (default: an empty v2 set). */
  patterns?: string;
  /** Where to write the pattern set with the fitted settings (nothing is written without). */
  out?: string;
  /** Overwrite `out` when it exists (refused otherwise). */
  force?: boolean;
  /** The written set's `createdAt`; default the wall clock (tests pin it). */
  now?: Date;
}

async function readBacklog(path: string): Promise<LabelledBacklog> {
  const labels = requireCriteria(parseLabels(await readText(path), path));
  return { labels, artefacts: labelledStories(labels) };
}

/** Everything is checked before the search runs and before anything is written. */
async function checkInputs(options: CalibrateOptions) {
  const [train, test] = [await readBacklog(options.train), await readBacklog(options.test)];
  const shared = sharedStories(train.labels, test.labels);
  if (shared.length > 0)
    throw new CliError(
      `${options.train} and ${options.test} share ${shared.length} stories; calibration is measured on stories it was not fitted on:\n  ${shared.slice(0, 10).join('\n  ')}${shared.length > 10 ? `\n  … (${shared.length - 10} more)` : ''}`,
      EXIT.invalidInput,
    );
  const patternSet = options.patterns
    ? parseOrThrow(PatternSetSchema, await readJson(options.patterns), options.patterns)
    : emptyPatternSet();
  if (options.out !== undefined) {
    const inputs = [options.train, options.test, options.patterns].filter((path) => path);
    if (inputs.some((path) => resolve(path as string) === resolve(options.out as string)))
      throw new CliError(
        `refusing to write the pattern set over its input ${options.out}`,
        EXIT.invalidInput,
      );
    if (!options.force && (await exists(options.out)))
      throw new CliError(
        `${options.out} already exists; pass --force to overwrite it`,
        EXIT.invalidInput,
      );
  }
  return { train, test, patternSet };
}

/** The given set (as its next version) or a new one, with the fitted settings. */
function fittedSet(patternSet: PatternSet, fit: FitResult, options: CalibrateOptions): PatternSet {
  const given = options.patterns !== undefined;
  return PatternSetSchema.parse({
    ...patternSet,
    version: given ? patternSet.version + 1 : 1,
    ...(given ? { parentVersion: patternSet.version } : {}),
    createdAt: (options.now ?? new Date()).toISOString(),
    reason: `qus settings fitted by ralph eval calibrate on ${options.train} (kappa, any syntactic defect: ${fit.startScore.kappa?.toFixed(3) ?? '—'} → ${fit.fittedScore.kappa?.toFixed(3) ?? '—'})`,
    qus: fit.fitted,
  });
}

/**
 * `ralph eval calibrate --train FILE --test FILE`: fits the cheap detectors' settings on
 * the train file's labels (kappa on "any syntactic defect", AUC as tie-break), reports both
 * settings on the test file side by side, and with `--out` writes the pattern set with the
 * fitted settings. Refused (exit 2) when the two files share a story.
 *
 * @example
 * await evalCalibrateCommand({ train: 'train.csv', test: 'test.csv', out: 'set.json' }, output);
 */
export async function evalCalibrateCommand(
  options: CalibrateOptions,
  output: Output,
): Promise<number> {
  const { train, test, patternSet } = await checkInputs(options);
  output.line(
    `ralph-cloud eval calibrate · fitting on ${options.train} (${train.artefacts.length} stories) · measuring on ${options.test} (${test.artefacts.length} stories)`,
  );
  const progress = progressLine({ quiet: output.json });
  const fit = fitSettings(train, patternSet, (step) =>
    progress.update(
      `fitting · round ${step.round} · ${step.setting} · ${step.evaluated} settings tried · best κ ${step.best.kappa?.toFixed(3) ?? '—'}`,
    ),
  );
  progress.end();
  const report: CalibrationReport = {
    train: options.train,
    test: options.test,
    out: options.out ?? null,
    fit,
    onTest: {
      start: agreementWith(test, patternSet, fit.start),
      fitted: agreementWith(test, patternSet, fit.fitted),
    },
  };
  if (options.out !== undefined)
    await writeAtomically(
      options.out,
      `${JSON.stringify(fittedSet(patternSet, fit, options), null, 2)}\n`,
    );
  for (const line of renderCalibration(report)) output.line(line);
  output.data(report);
  return EXIT.ok;
}
