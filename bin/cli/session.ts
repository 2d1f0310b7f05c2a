import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import type { StepEvent } from '../../local/local-executions.js';

export interface GlobalOptions {
  dataDir: string;
  json?: boolean;
}

export interface Session {
  stack: LocalStack;
  /** Replaces who hears about each finished step of a local execution. */
  onStep(listener: ((event: StepEvent) => void) | undefined): void;
}

/** Opens the local stack for one CLI command and always closes it. */
export async function withSession<T>(
  options: GlobalOptions,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  let listener: ((event: StepEvent) => void) | undefined;
  const stack = await openLocalStack({
    dataDir: options.dataDir,
    onStep: (event) => listener?.(event),
  });
  const stop = () => {
    // Ctrl-C: stop the executions; the run stays stored as running and `ralph resume` continues it.
    void stack.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work({
      stack,
      onStep: (next) => {
        listener = next;
      },
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stack.close();
  }
}
