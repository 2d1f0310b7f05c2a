/**
 * `--follow`: the agent's output printed as it comes, between the iteration lines. The
 * local runner writes each iteration's live transcript under the data dir
 * (local/live-transcripts/); this polls it, renders its lines (live-line.ts) and prints them
 * indented, so that the iteration lines (`#3 US-002 ✓ passed ...`) still stand out.
 *
 * An iteration's output is printed only once the caller allows it (the iteration before has
 * its line printed, or this one is announced), and all of it before its own line (`drain`).
 */
import { LiveTranscriptReader } from '../../../local/live-transcripts/file-reader.js';
import { withoutColours } from '../../../lambdas/core/tool-output/lines.js';
import { terminalSafe } from '../terminal-text.js';
import { LiveLineRenderer } from './live-line.js';

/** What comes before each line of the agent's output. */
export const LIVE_PREFIX = '    ';

export interface LiveOutputOptions {
  /** Where lines go (stdout by the caller's choice). */
  write: (line: string) => void;
  /** @default 200 */
  pollMs?: number;
  /**
   * Iterations before the first one allowed are not shown: a run or resume in this process
   * follows its own iterations, not the output left by an earlier segment.
   */
  fromFirstAllowed?: boolean;
  /**
   * Keep the agent's colour codes. @default stdout is a terminal and `NO_COLOR` is not set
   */
  colour?: boolean;
}

export class LiveOutput {
  private allowed = 0;
  private from = 1;
  private chain: Promise<void> = Promise.resolve();
  private busy = false;
  private readonly renderers = new Map<number, LiveLineRenderer>();
  private readonly timer: NodeJS.Timeout;
  /** What the agent wrote as a terminal may show it. */
  private readonly shown: (text: string) => string;

  constructor(
    private readonly reader: LiveTranscriptReader,
    private readonly options: LiveOutputOptions,
  ) {
    const colour =
      options.colour ?? (process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === '');
    this.shown = colour ? terminalSafe : (text) => terminalSafe(withoutColours(text));
    this.timer = setInterval(() => {
      // A tick while reading would only queue behind it.
      if (!this.busy) void this.flush(this.allowed);
    }, options.pollMs ?? 200);
  }

  /** The output of iterations up to `iteration` may show from now on. */
  allow(iteration: number): void {
    if (this.options.fromFirstAllowed && this.allowed === 0) this.from = iteration;
    this.allowed = Math.max(this.allowed, iteration);
  }

  /** Prints what is left of the output of iterations up to `iteration` (before its line). */
  drain(iteration: number): Promise<void> {
    return this.flush(iteration);
  }

  /** Prints what is left of the allowed iterations' output, and stops polling. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(this.allowed);
  }

  private flush(upTo: number): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (upTo < this.from) return;
      this.busy = true;
      try {
        for (const { iteration, line } of await this.reader.read(upTo)) {
          if (iteration < this.from) continue;
          for (const shown of this.renderer(iteration).render(line))
            this.options.write(`${LIVE_PREFIX}${this.shown(shown)}`);
        }
      } catch {
        // A read that failed (the file went away mid-read) is tried again at the next tick.
      } finally {
        this.busy = false;
      }
    });
    return this.chain;
  }

  private renderer(iteration: number): LiveLineRenderer {
    let renderer = this.renderers.get(iteration);
    if (!renderer) {
      renderer = new LiveLineRenderer();
      this.renderers.set(iteration, renderer);
    }
    return renderer;
  }
}

/** Follows the live output of `runId`'s iterations under the data dir. */
export function followLiveOutput(
  dataDir: string,
  runId: string,
  options: LiveOutputOptions,
): LiveOutput {
  return new LiveOutput(new LiveTranscriptReader(dataDir, runId), options);
}
