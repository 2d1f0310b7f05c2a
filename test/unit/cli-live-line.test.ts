import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LiveLineRenderer } from '../../bin/cli/live/live-line.js';

/** A Claude Code `-p --output-format stream-json --verbose` session, one event per line. */
const STREAM_JSON = new URL('../fixtures/claude-code/stream-json.jsonl', import.meta.url);

describe('Class: LiveLineRenderer', () => {
  describe('Method: render', () => {
    it("renders Claude Code's stream-json as short readable lines", async () => {
      // Prepare
      const lines = (await readFile(STREAM_JSON, 'utf8')).split('\n');
      const renderer = new LiveLineRenderer();

      // Act
      const shown = lines.flatMap((line) => renderer.render(line));

      // Assess: tool results that went well show nothing; paths are relative to the session's cwd.
      expect(shown).toEqual([
        '● session · claude-sonnet-4-5-20250929',
        "I'll start by reading the cart module to see how totals are computed.",
        '› Read src/app.ts',
        '› Edit src/app.ts',
        '› Bash npm test -- cart',
        '✗ Error: FAIL test/cart.test.ts > total > multiplies by quantity',
        'The test still uses the old fixture.',
        'Updating it to carry quantities.',
        '› Write test/cart.test.ts',
        'Totals now multiply price by quantity; the cart tests pass.',
        '<promise>COMPLETE</promise>',
        '✓ done in 42.5s · $0.12 · 6 turns',
      ]);
    });

    it("passes a plain agent's lines (as the transcript wraps them) through", () => {
      const renderer = new LiveLineRenderer();

      const shown = [
        '{"type":"text","stream":"stdout","text":"writing US-001.txt"}',
        '{"type":"text","stream":"stderr","text":"warning: slow disk"}',
        '{"type":"text","stream":"stdout","text":"   "}',
      ].flatMap((line) => renderer.render(line));

      expect(shown).toEqual(['writing US-001.txt', 'warning: slow disk']);
    });

    it('shows a failed session with its subtype, and lines that are no event as they are', () => {
      const renderer = new LiveLineRenderer();

      const shown = [
        '{"type":"result","subtype":"error_max_turns","is_error":true,"duration_ms":1000,"num_turns":1}',
        '{"type":"stream_event","event":{"type":"content_block_delta"}}',
        '{"type":"assistant","message":{"content":[{"type":"text","text":"cut off',
        '{"level":"info","msg":"another tool\'s JSON"}',
      ].flatMap((line) => renderer.render(line));

      expect(shown).toEqual([
        '✗ error_max_turns in 1.0s · 1 turn',
        '{"type":"assistant","message":{"content":[{"type":"text","text":"cut off',
        '{"level":"info","msg":"another tool\'s JSON"}',
      ]);
    });

    it('cuts long lines and long speeches', () => {
      const renderer = new LiveLineRenderer();
      const said = Array.from({ length: 6 }, (_, index) => `line ${index + 1}`).join('\n');

      const long = renderer.render(
        `{"type":"text","stream":"stdout","text":"${'x'.repeat(5000)}"}`,
      );
      const speech = renderer.render(
        JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: said }] } }),
      );

      expect(long).toHaveLength(1);
      expect(long[0]).toHaveLength(200);
      expect(long[0]!.endsWith('…')).toBe(true);
      expect(speech).toEqual(['line 1', 'line 2', 'line 3', 'line 4', '…']);
    });
  });
});
