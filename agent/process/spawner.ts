/**
 * How the runner starts processes, passed in rather than chosen here: git runs to its end
 * (`run`); the agent, the gates and the evaluation suite are streamed, each the leader of a
 * process group of its own (`stream`), which agent/process/process.ts ends itself.
 *
 * The container starts plain child processes (agent/process/child-process-spawner.ts). The local
 * stack runs everything in one process of some 200 MB, where each fork stalls the event
 * loop, so it passes its spawn server instead (local/spawn-server/).
 */
import type { Buffer } from 'node:buffer';
import type { RunRequest, RunResult, StreamEvent, StreamRequest } from './run-process.mjs';

export type { RunRequest, RunResult, StreamEvent, StreamRequest };

/** What a streamed command reports, as it goes. */
export interface StreamHandlers {
  /** It started: its pid, which is its process group's id. */
  onStarted?(pid: number): void;
  onData?(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  /** Its leader ended (orphans may still hold its output open). */
  onExited?(exitCode: number | null, signal: string | null): void;
}

/** How a streamed command ended, once its output closed. */
export type StreamClosed = Omit<Extract<StreamEvent, { kind: 'closed' }>, 'kind'>;

/**
 * @example
 * const result = await spawner.run({ file: 'git', args: ['rev-parse', 'HEAD'], cwd, env, ... });
 * const closed = await spawner.stream({ file: 'sh', args: ['-c', 'npm test'], cwd, env }, {
 *   onData: (stream, chunk) => process.stdout.write(chunk),
 * });
 */
export interface Spawner {
  /**
   * Runs a command to its end and collects its output. A command that fails, times out or
   * cannot start is described by the result; a rejection means the spawner itself failed
   * (whether the command ran is then not known).
   */
  run(request: RunRequest): Promise<RunResult>;
  /**
   * Starts a command as the leader of a process group of its own and reports as it goes;
   * resolves once its output has closed. Ending it (its group) is the caller's business.
   */
  stream(request: StreamRequest, handlers?: StreamHandlers): Promise<StreamClosed>;
}

/**
 * Passes one stream event to its handler; returns how the command ended when the event
 * was the last one (`closed`).
 */
export function deliverStreamEvent(
  handlers: StreamHandlers,
  event: StreamEvent,
  payload: Buffer,
): StreamClosed | undefined {
  if (event.kind === 'started') handlers.onStarted?.(event.pid);
  else if (event.kind === 'data') handlers.onData?.(event.stream, payload);
  else if (event.kind === 'exited') handlers.onExited?.(event.exitCode, event.signal);
  else {
    const { kind, ...closed } = event;
    return closed;
  }
  return undefined;
}
