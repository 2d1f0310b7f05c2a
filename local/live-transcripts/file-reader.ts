/**
 * Reads a run's live transcripts (file-writer.ts) as they grow, from this process or
 * another: each call returns the lines completed since the last one. What the agent wrote is
 * untrusted: a line still being written waits for its newline, a line past the bound is cut,
 * bytes that are not UTF-8 become U+FFFD, and a file started afresh (a retried iteration) is
 * read from its start again.
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { iterationOfFile, liveTranscriptDir } from './paths.js';

/** A line longer than this is cut here (the rest of it is skipped up to its newline). */
export const LIVE_LINE_MAX_CHARS = 64 * 1024;
/** Read at most this much of a file per call, so that one call stays short. */
const CHUNK_BYTES = 256 * 1024;

export interface LiveLine {
  iteration: number;
  line: string;
}

interface FileState {
  offset: number;
  decoder: StringDecoder;
  /** The line still waiting for its newline. */
  partial: string;
  /** The line being read is past LIVE_LINE_MAX_CHARS: the rest of it is skipped. */
  skipping: boolean;
}

const fresh = (): FileState => ({
  offset: 0,
  decoder: new StringDecoder('utf8'),
  partial: '',
  skipping: false,
});

export class LiveTranscriptReader {
  private readonly files = new Map<number, FileState>();
  private readonly dir: string | undefined;

  constructor(dataDir: string, runId: string) {
    this.dir = liveTranscriptDir(dataDir, runId);
  }

  /**
   * The lines completed since the last call in the files of iterations up to `upTo`, in
   * iteration order. A run without live transcripts (yet) has none.
   */
  async read(upTo: number): Promise<LiveLine[]> {
    if (!this.dir) return [];
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const iterations = names
      .map(iterationOfFile)
      .filter((n): n is number => n !== undefined && n <= upTo)
      .sort((a, b) => a - b);
    const lines: LiveLine[] = [];
    for (const iteration of iterations)
      for (const line of await this.readFile(iteration)) lines.push({ iteration, line });
    return lines;
  }

  private async readFile(iteration: number): Promise<string[]> {
    const path = join(this.dir!, `${iteration}.jsonl`);
    const state = this.files.get(iteration) ?? fresh();
    this.files.set(iteration, state);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch {
      return []; // removed meanwhile: the run has moved on
    }
    try {
      const { size } = await handle.stat();
      if (size < state.offset) Object.assign(state, fresh());
      const lines: string[] = [];
      const buffer = Buffer.alloc(CHUNK_BYTES);
      while (state.offset < size) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, state.offset);
        if (bytesRead === 0) break;
        state.offset += bytesRead;
        lines.push(...splitLines(state, state.decoder.write(buffer.subarray(0, bytesRead))));
      }
      return lines;
    } finally {
      await handle.close();
    }
  }
}

/** The complete lines in `text` after what `state` holds; keeps the rest for later. */
function splitLines(state: FileState, text: string): string[] {
  const pieces = text.split('\n');
  const last = pieces.pop() ?? '';
  const lines: string[] = [];
  for (const piece of pieces) {
    if (!state.skipping) lines.push((state.partial + piece).slice(0, LIVE_LINE_MAX_CHARS));
    state.partial = '';
    state.skipping = false;
  }
  if (!state.skipping) state.partial += last;
  if (state.partial.length > LIVE_LINE_MAX_CHARS) {
    lines.push(state.partial.slice(0, LIVE_LINE_MAX_CHARS));
    state.partial = '';
    state.skipping = true;
  }
  return lines;
}
