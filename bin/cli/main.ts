import '../../local/polyfills.js';
import { CommanderError } from 'commander';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { buildProgram } from './program.js';
import { CliError, exitCodeFor } from './errors.js';
import { EXIT } from './exit-codes.js';
import { isTerminal, terminalSafe } from './terminal-text.js';

/** Runs the CLI and returns its exit code (tests call this directly). */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  const json = argv.includes('--json');
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalidInput;
    const code = exitCodeFor(error);
    const message = (error as Error).message;
    if (json) {
      const issues =
        error instanceof InvalidInputError || error instanceof CliError ? error.issues : undefined;
      process.stdout.write(
        `${JSON.stringify({ error: { message, issues, exitCode: code } }, null, 2)}\n`,
      );
    } else {
      process.stderr.write(
        `ralph: ${isTerminal(process.stderr) ? terminalSafe(message) : message}\n`,
      );
      if (code === EXIT.internal && process.env.RALPH_DEBUG) console.error(error);
    }
    return code;
  }
}
