/**
 * Where the local stack keeps the agents' live transcripts: `<dataDir>/live/<runId>/<n>.jsonl`,
 * one file per iteration, of which a run keeps only its latest (the finished ones are in
 * their transcript.jsonl artefacts).
 */
import { join } from 'node:path';

/** A run id as the CLI makes them (`r20250101-120000-a1b2c3`): safe as a folder name. */
const SAFE_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The run's folder of live transcripts; `undefined` for an id that is no safe folder name. */
export function liveTranscriptDir(dataDir: string, runId: string): string | undefined {
  return SAFE_RUN_ID.test(runId) ? join(dataDir, 'live', runId) : undefined;
}

export function liveTranscriptFile(iteration: number): string {
  return `${iteration}.jsonl`;
}

/** The iteration a file of the run's folder is the live transcript of, if it is one. */
export function iterationOfFile(name: string): number | undefined {
  const match = /^(\d+)\.jsonl$/.exec(name);
  return match ? Number(match[1]) : undefined;
}
