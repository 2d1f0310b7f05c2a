/**
 * The agent's output as `transcript.jsonl`: one JSON object per line, in arrival order.
 * A stdout line that already is a JSON object (Claude Code's stream-json events) is kept
 * as it is; any other line is wrapped as `{"type":"text","stream":"stdout"|"stderr","text"}`.
 */
import type { OutputStream } from '../process/process.js';

/** Kept in memory and in the artefact; the oldest lines go first. */
const DEFAULT_MAX_CHARS = 16 * 1024 * 1024;
/** A "line" without a newline this long is cut, so one runaway line cannot eat the budget. */
const MAX_LINE_CHARS = 1024 * 1024;

export class Transcript {
  private readonly lines: string[] = [];
  private size = 0;
  private dropped = 0;
  private readonly partial: Record<OutputStream, string> = { stdout: '', stderr: '' };
  private listener: ((line: string) => void) | undefined;

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  /**
   * Hands each line of the agent's output, as the transcript keeps it, to `listener` too
   * as it comes (the live transcript); the runner's notes are not the agent's and stay out.
   * Returns the function that stops it.
   */
  tee(listener: (line: string) => void): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** Feeds a chunk of output (as runCommand's `onOutput` gives it). */
  push(stream: OutputStream, text: string): void {
    const pieces = (this.partial[stream] + text).split('\n');
    this.partial[stream] = pieces.pop() ?? '';
    for (const piece of pieces) this.add(stream, piece);
    if (this.partial[stream].length > MAX_LINE_CHARS) {
      this.add(stream, this.partial[stream]);
      this.partial[stream] = '';
    }
  }

  /** Adds a line of the runner's own (what it decided, and why). */
  note(text: string): void {
    this.append(JSON.stringify({ type: 'text', stream: 'runner', text }));
  }

  /** Flushes unterminated last lines. */
  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream] !== '') this.add(stream, this.partial[stream]);
      this.partial[stream] = '';
    }
  }

  toJsonl(): string {
    const head =
      this.dropped > 0
        ? [
            JSON.stringify({
              type: 'text',
              stream: 'runner',
              text: `[${this.dropped} earlier lines dropped]`,
            }),
          ]
        : [];
    const all = [...head, ...this.lines];
    return all.length === 0 ? '' : `${all.join('\n')}\n`;
  }

  private add(stream: OutputStream, rawLine: string): void {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const kept =
      stream === 'stdout' && isJsonObject(line)
        ? line.trim()
        : JSON.stringify({ type: 'text', stream, text: line });
    this.append(kept);
    this.listener?.(kept);
  }

  private append(line: string): void {
    this.lines.push(line);
    this.size += line.length + 1;
    while (this.size > this.maxChars && this.lines.length > 1) {
      this.size -= (this.lines.shift() ?? '').length + 1;
      this.dropped += 1;
    }
  }
}

function isJsonObject(line: string): boolean {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
