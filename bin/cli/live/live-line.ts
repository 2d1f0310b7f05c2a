/**
 * The agent's live transcript as short lines for people, as `ralph run --follow` prints
 * them: Claude Code's stream-json events (lambdas/core/control/transcript/parse-stream-json.ts
 * reads them) become "● session · model", "› Read src/app.ts", the agent's words,
 * "✗ <a tool's error>" and "✓ done in 42.0s · $0.12 · 8 turns"; a plain agent's lines pass
 * as they are. Every line is cut to a screen's width or so.
 */
import {
  transcriptLineEvents,
  type TranscriptEvent,
} from '../../../lambdas/core/control/transcript/parse-stream-json.js';
import { toCall } from '../../../lambdas/core/control/transcript/tool-calls.js';
import { seconds } from '../render.js';

/** A shown line is cut here. */
const MAX_CHARS = 200;
/** Of what the agent says at once, this many lines are shown. */
const MAX_SAID_LINES = 4;

function clip(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

/** The non-blank lines of a text, at most `max`, the last saying that more was cut. */
function firstLines(text: string, max: number): string[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const shown = lines.slice(0, max).map(clip);
  if (lines.length > max) shown.push('…');
  return shown;
}

function resultLine(event: Extract<TranscriptEvent, { kind: 'result' }>): string {
  const head = event.isError ? `✗ ${event.subtype ?? 'error'}` : '✓ done';
  return [
    event.durationMs === undefined ? head : `${head} in ${seconds(event.durationMs)}`,
    ...(event.costUsd === undefined ? [] : [`$${event.costUsd.toFixed(2)}`]),
    ...(event.turns === undefined ? [] : [`${event.turns} turn${event.turns === 1 ? '' : 's'}`]),
  ].join(' · ');
}

/**
 * Renders one iteration's live transcript, a line at a time; it remembers the session's
 * working directory to show the files the agent touches relative to it.
 *
 * @example
 * const live = new LiveLineRenderer();
 * live.render('{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"/repo/a.ts"}}]}}');
 * // ['› Read /repo/a.ts']
 */
export class LiveLineRenderer {
  private cwd: string | undefined;

  /** The lines to show for one transcript line: none for an event that shows nothing. */
  render(line: string): string[] {
    const events = transcriptLineEvents(line);
    // Not one of the transcript's events (a line cut at its bound, another tool's JSON).
    if (events === undefined) return line.trim() === '' ? [] : [clip(line)];
    return events.flatMap((event) => this.event(event));
  }

  private event(event: TranscriptEvent): string[] {
    switch (event.kind) {
      case 'session':
        this.cwd = event.cwd ?? this.cwd;
        return [`● session${event.model ? ` · ${event.model}` : ''}`];
      case 'assistant_text':
        return firstLines(event.text, MAX_SAID_LINES);
      case 'tool_use':
        return [`› ${toCall(event, this.cwd).label}`];
      case 'tool_result':
        // A result is long and the next call says what came of it; an error is news.
        return event.isError ? [`✗ ${firstLines(event.text, 1)[0] ?? 'tool error'}`] : [];
      case 'result':
        return [resultLine(event)];
      case 'line':
        return event.text.trim() === '' ? [] : [clip(event.text)];
    }
  }
}
