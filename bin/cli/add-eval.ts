import { Option, type Command } from 'commander';
import type { CommandContext } from './command-context.js';
import { evalCommand } from './commands/eval.js';
import { evalCalibrateCommand, type CalibrateOptions } from './commands/eval-calibrate.js';

/** `ralph eval calibrate`: the subcommand of `ralph eval` that fits the detectors' settings. */
function addEvalCalibrate(evaluate: Command, { setExit, out }: CommandContext): void {
  evaluate
    .command('calibrate')
    .description(
      "fit the cheap detectors' settings (the pattern set's qus) on labelled stories and measure them on others (docs/labels.md)",
    )
    .requiredOption('--train <file>', 'a labelled CSV the settings are fitted on')
    .requiredOption('--test <file>', 'a labelled CSV they are measured on (no story of --train)')
    .option('--patterns <file>', 'the v2 pattern set to start from (default: an empty one)')
    .option(
      '-o, --out <file>',
      'write the pattern set with the fitted settings here (default: nothing is written)',
    )
    .option('--force', 'overwrite --out if it exists', false)
    .action(async (options: CalibrateOptions) => {
      setExit(await evalCalibrateCommand(options, out()));
    });
}

/** `ralph eval PATH` and its subcommand `ralph eval calibrate`. */
export function addEval(program: Command, context: CommandContext): void {
  const { setExit, out } = context;
  const evaluate = program
    .command('eval')
    .argument(
      '<path>',
      'the stories: a folder (.json artefacts, .txt/.md files of one sentence), a prd.json, a labelled .csv, or a text file with one story per line',
    )
    .description('score user stories with the LLM judge, the cheap evaluator, or both, and compare')
    .addOption(
      new Option('-m, --mode <mode>', 'which evaluation to run')
        .choices(['expensive', 'cheap', 'dual'])
        .default('dual'),
    )
    .option('--patterns <file>', 'a v2 pattern set for the cheap mode (default: heuristics only)')
    .option('--model <id>', 'the judge model (default: the run config default)')
    .option(
      '--labels <file>',
      "a CSV of human QUS labels: Cohen's kappa, AUC and confusion of the cheap mode per criterion (docs/labels.md) (default: none)",
    )
    .action(async (path: string, options: Parameters<typeof evalCommand>[1]) => {
      setExit(await evalCommand(path, options, out()));
    });
  addEvalCalibrate(evaluate, context);
}
