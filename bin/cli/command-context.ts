/** What every command of the program is given, and the options several commands share. */
import { Option } from 'commander';
import type { DataDirChoice } from './data-dir.js';
import type { Output } from './output.js';

/** `--endpoint`: the commands that act on runs call a Run API instead of the local stack. */
export function endpointOption(): Option {
  return new Option(
    '-e, --endpoint <url>',
    "a Run API (a deployment's ApiUrl, or `ralph serve`) instead of the local stack",
  ).env('RALPH_ENDPOINT');
}

/** Sets the exit code a command returned; main() exits with it. */
export type ExitSink = (code: number) => void;

export interface GlobalOptions extends DataDirChoice {
  json: boolean;
}

/** What every command's action needs: the global options as parsed, and where to report. */
export interface CommandContext {
  setExit: ExitSink;
  globals: () => GlobalOptions;
  out: () => Output;
}
