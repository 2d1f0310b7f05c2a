/**
 * The agent's transcript while it runs, for a reader in another process (`ralph watch RUN
 * --follow`): each line transcript.jsonl will hold is handed over as it comes. Where the lines
 * go is the caller's business (locally: a bounded file under the data dir,
 * local/live-transcripts/); the container passes none, and its transcript.jsonl, stored
 * once the agent has ended, is all there is.
 */
export interface LiveTranscriptWriter {
  /** One transcript line, without its newline. Never throws and never waits. */
  write(line: string): void;
  /** Resolves once every line written is where readers read it. Never rejects. */
  close(): Promise<void>;
}

/** Opens an iteration's live transcript. */
export interface LiveTranscriptPort {
  /** Starts iteration `iteration`'s live transcript afresh. */
  open(runId: string, iteration: number): Promise<LiveTranscriptWriter>;
}
