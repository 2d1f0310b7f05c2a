/**
 * The runner's live transcripts as files under the data dir, which `ralph run --follow` and
 * `ralph watch RUN --follow` (in this process or another) read as they grow. Append-only,
 * one line per transcript line, bounded in size: past the bound one note says so and the
 * rest goes only to transcript.jsonl.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  LiveTranscriptPort,
  LiveTranscriptWriter,
} from '../../agent/runner/live-transcript.js';
import { liveTranscriptDir, liveTranscriptFile } from './paths.js';

/** An iteration's live transcript stops growing here. */
export const LIVE_TRANSCRIPT_MAX_BYTES = 4 * 1024 * 1024;

const DISCARD: LiveTranscriptWriter = { write: () => undefined, close: async () => undefined };

export class FileLiveTranscripts implements LiveTranscriptPort {
  constructor(
    private readonly dataDir: string,
    private readonly maxBytes = LIVE_TRANSCRIPT_MAX_BYTES,
  ) {}

  /**
   * Starts the iteration's file afresh (a retried iteration writes it again) and removes
   * the run's other iterations' files, which readers no longer need.
   */
  async open(runId: string, iteration: number): Promise<LiveTranscriptWriter> {
    const dir = liveTranscriptDir(this.dataDir, runId);
    if (!dir) return DISCARD;
    await mkdir(dir, { recursive: true });
    const file = liveTranscriptFile(iteration);
    for (const name of await readdir(dir))
      if (name !== file) await rm(join(dir, name), { force: true, recursive: true });
    return boundedWriter(join(dir, file), this.maxBytes);
  }
}

function boundedWriter(path: string, maxBytes: number): LiveTranscriptWriter {
  const stream = createWriteStream(path, { flags: 'w' });
  let broken = false; // a write failed: the stream is destroyed
  let full = false;
  let bytes = 0;
  // A failed write (disk full) only ends the live copy; the transcript keeps everything.
  stream.on('error', () => {
    broken = true;
  });
  return {
    write: (line) => {
      if (broken || full) return;
      const text = `${line}\n`;
      const size = Buffer.byteLength(text);
      if (bytes + size > maxBytes) {
        full = true;
        stream.write(
          `${JSON.stringify({
            type: 'text',
            stream: 'runner',
            text: `[live output stops here at ${Math.round(maxBytes / 1024)} KiB: the iteration's transcript.jsonl has all of it]`,
          })}\n`,
        );
        return;
      }
      bytes += size;
      stream.write(text);
    },
    // 'close' comes after the last write is flushed, or after an error.
    close: () =>
      new Promise((resolve) => {
        if (stream.destroyed) resolve();
        else {
          stream.once('close', () => resolve());
          stream.end();
        }
      }),
  };
}
