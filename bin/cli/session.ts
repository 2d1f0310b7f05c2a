import {
  openLocalStack,
  type LocalStack,
  type LocalStackOptions,
} from '../../local/local-stack.js';
import { dataDirFlag, type DataDirChoice } from './data-dir.js';
import type { StepEvent } from '../../local/local-executions.js';

export interface GlobalOptions extends DataDirChoice {
  json?: boolean;
}

export interface Session {
  stack: LocalStack;
  /** The data dir, as given or by default (where the live agent output is, too). */
  dataDir: string;
  /**
   * What a command the CLI suggests needs to reach this data dir again: ` --data-dir <dir>`
   * when one was given, else nothing.
   */
  flags: string;
  /** Replaces who hears about each finished step of a local execution. */
  onStep(listener: ((event: StepEvent) => void) | undefined): void;
}

/**
 * Opens the local stack for one CLI command and always closes it. `codeHost`: where an
 * investigate run's pull requests go (else RALPH_GITHUB_TOKEN's GitHub, local-code-host.ts).
 */
export async function withSession<T>(
  options: GlobalOptions,
  work: (session: Session) => Promise<T>,
  stackOptions: Pick<LocalStackOptions, 'codeHost'> = {},
): Promise<T> {
  let listener: ((event: StepEvent) => void) | undefined;
  const stack = await openLocalStack({
    ...stackOptions,
    dataDir: options.dataDir,
    onStep: (event) => listener?.(event),
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while closing: leave now (the agent's process group was already told
    // to stop). The run stays stored as running and `ralph resume` continues it.
    if (stopping) process.exit(signalExitCode(signal));
    stopping = true;
    void stack.close().finally(() => process.exit(signalExitCode(signal)));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  try {
    return await work({
      stack,
      dataDir: options.dataDir,
      flags: dataDirFlag(options),
      onStep: (next) => {
        listener = next;
      },
    });
  } finally {
    for (const signal of signals) process.off(signal, stop);
    await stack.close();
  }
}

function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15);
}
